/// A profile read from a TOML document: text, bytes and files (`load(path:)`, in the runtime shell)
/// all go through `load(table:)`.
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
}
