import FairFuelCore

/// Time zone rules by IANA name, from the system's compiled database (Debian's tzdata).
public enum TimeZoneDatabase {
    public static let defaultDirectory = "/usr/share/zoneinfo"

    /// The largest file read: the biggest zone in tzdata 2025b is under 4 KiB.
    static let maximumFileBytes = 256 * 1024

    /// The rules of zone `name` ("Europe/Berlin"), read from `directory`.
    ///
    /// "UTC" and "Etc/UTC" give `TimeZoneRules.utc` without reading anything. Any other name must be
    /// segments of [A-Za-z0-9_+-] separated by "/", at most 64 characters, so that it never leaves
    /// `directory`. The errors say what to do: an unknown name points at the directory's names.
    public static func load(_ name: String, directory: String = defaultDirectory) throws(TimeZoneError) -> TimeZoneRules {
        if name == "UTC" || name == "Etc/UTC" { return .utc }
        guard isZoneName(name) else { throw TimeZoneError("'\(name)' is not a time zone name") }
        let path = directory + "/" + name
        let unknown = "unknown time zone '\(name)' (no \(path); names as in \(directory), e.g. Europe/Berlin)"
        let kind: FileKind
        do {
            kind = try FileOperations.kind(of: path)
        } catch {
            guard error.isNotFound else { throw TimeZoneError("cannot read time zone '\(name)': \(error)") }
            guard FileOperations.exists(directory) else {
                throw TimeZoneError("unknown time zone '\(name)': there is no time zone database at \(directory) (install tzdata)")
            }
            throw TimeZoneError(unknown)
        }
        switch kind {
        case .regularFile: break
        case .directory:
            throw TimeZoneError("unknown time zone '\(name)' (\(path) is a directory of zones; name one in it, e.g. Europe/Berlin)")
        case .other: throw TimeZoneError("\(path) is not a TZif file: it is not a regular file")
        }
        let bytes: [UInt8]
        switch TextFileReader.readAll(path: path, maximumBytes: maximumFileBytes + 1) {
        case .success(let read): bytes = read
        case .failure(let error): throw TimeZoneError("cannot read time zone '\(name)': \(error)")
        }
        guard bytes.count <= maximumFileBytes else {
            throw TimeZoneError("\(path) is not a TZif file: it is larger than \(maximumFileBytes / 1024) KiB")
        }
        do {
            return try TimeZoneRules(name: name, tzif: bytes)
        } catch {
            throw TimeZoneError("\(path) is not a TZif file: \(error.description)")
        }
    }

    /// Segments of [A-Za-z0-9_+-] separated by "/", none empty (so no leading "/"), at most 64 characters;
    /// "." is not among the characters, so neither "." nor ".." can be a segment.
    static func isZoneName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 64 else { return false }
        return bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).allSatisfy { segment in
            !segment.isEmpty
                && segment.allSatisfy { byte in
                    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
                        || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                }
        }
    }
}
