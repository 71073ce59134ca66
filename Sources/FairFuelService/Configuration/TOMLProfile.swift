import FairFuelEdges

/// A profile read from a TOML document: text, bytes and files all go through `load(table:)`.
public protocol TOMLProfile {
    /// Reads the profile from a parsed document.
    static func load(table: TOMLTable) throws(ProfileError) -> Self
}

extension TOMLProfile {
    /// Reads a profile from text; see `load(table:)`.
    public static func load(text: String) throws(ProfileError) -> Self {
        try load(bytes: Array(text.utf8))
    }

    /// Reads a profile from UTF-8 bytes; see `load(table:)`.
    public static func load(bytes: [UInt8]) throws(ProfileError) -> Self {
        let table: TOMLTable
        do {
            table = try TOMLParser.parse(bytes)
        } catch {
            throw .syntax(error)
        }
        return try load(table: table)
    }

    /// Reads the profile at `path`; every error names the path.
    public static func load(path: String) throws(ProfileError) -> Self {
        switch TextFileReader.readAll(path: path, maximumBytes: 1 << 20) {
        case let .failure(error):
            throw .file(error)
        case let .success(bytes):
            do {
                return try load(bytes: bytes)
            } catch {
                throw .inFile(path: path, error)
            }
        }
    }
}
