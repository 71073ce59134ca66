import HummingbirdBcrypt

/// The web app's passwords: what one must be, and its bcrypt hash (the salt inside), never the text.
public enum WebPassword {
    public static let minimumLength = 8
    /// bcrypt reads at most 72 bytes: a longer password would match any with the same start.
    public static let maximumBytes = 72

    /// The bcrypt hash of an acceptable password, or why it is not one.
    public static func hash(_ password: String, cost: UInt8 = 12) throws(WebError) -> String {
        guard password.count >= minimumLength else { throw .badRequest("a password needs at least \(minimumLength) characters") }
        guard password.utf8.count <= maximumBytes else { throw .badRequest("a password has at most \(maximumBytes) bytes (bcrypt reads no more)") }
        return Bcrypt.hash(password, cost: cost)
    }
}
