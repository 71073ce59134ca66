/// The code of an ERROR frame.
public enum PullErrorCode: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// HELLO_REQ named a protocol major version this dongle does not speak.
    case unsupportedVersion = 1
    /// AUTH came without a fresh HELLO nonce (none yet, or already used by an earlier AUTH).
    case noNonce = 2
    /// The laptop's MAC is wrong (or the dongle has no pairing secret yet: the same answer, on purpose).
    case authFailed = 3
    /// Too many failed tries: wait `retry_after_ms`.
    case locked = 4
    /// GET before a successful AUTH.
    case notAuthenticated = 5
    /// A frame too short or long for its type, or a field out of range.
    case badRequest = 6
    /// The store could not be read.
    case storeError = 7

    public var description: String {
        switch self {
        case .unsupportedVersion: "unsupported protocol version"
        case .noNonce: "no fresh nonce (send HELLO_REQ first)"
        case .authFailed: "pairing failed: wrong secret"
        case .locked: "pairing locked after failed tries"
        case .notAuthenticated: "not authenticated"
        case .badRequest: "bad request"
        case .storeError: "the dongle could not read its store"
        }
    }
}
