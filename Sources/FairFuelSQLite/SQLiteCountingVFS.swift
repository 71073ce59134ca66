import CSQLite
import Synchronization

/// A VFS over the default one that counts bytes written and syncs, and for tests can
/// hold unsynced writes in memory (a SIGKILL then plays a power cut) or refuse to grow
/// files (a full disk).
///
/// Registered once per name for the life of the process; open a connection with
/// `SQLiteConnection(path:vfs:)` to go through it.
public final class SQLiteCountingVFS: @unchecked Sendable {
    public let name: String
    /// Lives as long as the process: SQLite keeps a pointer to it.
    private let state: UnsafeMutablePointer<fairfuel_vfs>

    private static let registry = Mutex<[String: SQLiteCountingVFS]>([:])

    private init(name: String, state: UnsafeMutablePointer<fairfuel_vfs>) {
        self.name = name
        self.state = state
    }

    /// Registers a new counting VFS; a name already registered is refused.
    public static func register(name: String) throws(SQLiteError) -> SQLiteCountingVFS {
        let result: Result<SQLiteCountingVFS, SQLiteError> = registry.withLock { vfses in
            if vfses[name] != nil || sqlite3_vfs_find(name) != nil {
                return .failure(SQLiteError(code: SQLITE_MISUSE, message: "a VFS named \(name) is already registered"))
            }
            let state = UnsafeMutablePointer<fairfuel_vfs>.allocate(capacity: 1)
            let code = fairfuel_vfs_register(state, name)
            guard code == SQLITE_OK else {
                state.deallocate()
                return .failure(SQLiteError(code: code, message: "cannot register the VFS \(name)"))
            }
            let vfs = SQLiteCountingVFS(name: name, state: state)
            vfses[name] = vfs
            return .success(vfs)
        }
        return try result.get()
    }

    /// The counting VFS registered under `name`, if any.
    public static func named(_ name: String) -> SQLiteCountingVFS? {
        registry.withLock { $0[name] }
    }

    /// The counts since registration or the last `resetCounters()`.
    public var counters: SQLiteIOCounters {
        var raw = fairfuel_io_counters()
        fairfuel_vfs_read_counters(state, &raw)
        func perFile(_ kind: Int) -> SQLiteIOCounters.PerFile {
            withUnsafeBytes(of: raw.bytes_written) { bytes in
                withUnsafeBytes(of: raw.writes) { writes in
                    withUnsafeBytes(of: raw.syncs) { syncs in
                        SQLiteIOCounters.PerFile(
                            bytesWritten: bytes.load(fromByteOffset: kind * 8, as: UInt64.self),
                            writes: writes.load(fromByteOffset: kind * 8, as: UInt64.self),
                            syncs: syncs.load(fromByteOffset: kind * 8, as: UInt64.self))
                    }
                }
            }
        }
        var counters = SQLiteIOCounters()
        counters.database = perFile(Int(FAIRFUEL_FILE_MAIN_DB))
        counters.wal = perFile(Int(FAIRFUEL_FILE_WAL))
        counters.journal = perFile(Int(FAIRFUEL_FILE_JOURNAL))
        counters.other = perFile(Int(FAIRFUEL_FILE_OTHER))
        counters.truncates = raw.truncates
        counters.refusedWrites = raw.refused_writes
        return counters
    }

    public func resetCounters() { fairfuel_vfs_reset_counters(state) }

    /// Keeps writes in memory until their file is synced or closed: killing the
    /// process then loses what a power cut would. For tests only.
    public func setHoldsUnsyncedWrites(_ on: Bool) { fairfuel_vfs_set_hold_unsynced(state, on ? 1 : 0) }

    /// Fails with `SQLITE_FULL` every write that would make a file longer. For tests only.
    public func setRefusesFileGrowth(_ on: Bool) { fairfuel_vfs_set_refuse_growth(state, on ? 1 : 0) }
}
