import HummingbirdBcrypt

/// The web app's passwords: what one must be, and its bcrypt hash (the salt inside), never the text.
public enum WebPassword {
    public static let minimumLength = 8
    /// bcrypt reads at most 72 bytes: a longer password would match any with the same start.
    public static let maximumBytes = 72
    /// The cost `fairfuel web user add` hashes with.
    public static let defaultCost: UInt8 = 12

    /// The bcrypt hash of an acceptable password, or why it is not one.
    public static func hash(_ password: String, cost: UInt8 = defaultCost) throws(WebError) -> String {
        guard password.count >= minimumLength else { throw .badRequest("a password needs at least \(minimumLength) characters") }
        guard password.utf8.count <= maximumBytes else { throw .badRequest("a password has at most \(maximumBytes) bytes (bcrypt reads no more)") }
        return Bcrypt.hash(password, cost: cost)
    }

    /// The cost a bcrypt hash was made with (`$2b$12$...`: 12), or nil when it is not one.
    public static func cost(ofHash hash: String) -> UInt8? {
        let fields = hash.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 4, fields[0].isEmpty, fields[1].hasPrefix("2"), fields[2].count == 2 else { return nil }
        return UInt8(fields[2])
    }
}
