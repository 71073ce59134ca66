import CSQLite

/// Facts about the SQLite library the build links against.
public enum SQLiteLibrary {
    /// The runtime library version, e.g. `3.40.1`.
    public static var version: String { String(cString: sqlite3_libversion()) }

    /// Whether the library was built thread-safe (the store relies on it for readers).
    public static var isThreadSafe: Bool { sqlite3_threadsafe() != 0 }
}
