import FairFuelCore
import FairFuelDomain

/// The car's side of commands down from the hub, without I/O: a message from
/// `<prefix>/<vehicle>/command` and the pairing secret in, a verdict out (apply this command, or
/// refuse it and why), and the result message to publish on `…/command/result`.
///
/// The envelope is `{"id":…,"payload":"<the command's JSON as text>","hmac":"<64 hex>"}`, the MAC
/// HMAC-SHA256 under the pairing secret over `FleetCommand.signedMessage(id:payload:)`. A message
/// that fails its check is refused before its payload is read, and never applied. Refusals are
/// logged at most once a minute per kind (`RateLimitedLog`): anyone who can publish on the broker
/// can send them.
public struct CommandDesk {
    /// Whether `mac` is the HMAC-SHA256 of `message` under `key`, compared in constant time
    /// (the shell passes libcrypto's; tests may too).
    public typealias Verifier = (_ key: [UInt8], _ message: [UInt8], _ mac: [UInt8]) -> Bool

    /// Larger messages are refused unread: a command is a few hundred bytes.
    public static let maximumMessageBytes = 16_384

    public enum Outcome: String, Sendable, Equatable {
        case applied
        case refused
        case alreadyApplied = "already_applied"
    }

    public enum Verdict: Sendable, Equatable {
        /// Authentic and well formed: the store applies it (or answers that it already did).
        case apply(FleetCommand)
        /// `id` when the envelope had a readable one, so that the hub can match the answer.
        case refuse(id: String?, reason: String)
    }

    /// A verdict and the log line it warrants, if the rate limit lets one through.
    public struct Decision: Sendable, Equatable {
        public var verdict: Verdict
        public var logLine: String?
    }

    enum RefusalKind: Hashable, Sendable {
        case unauthenticated
        case malformed
        case noSecret
    }

    private let verify: Verifier
    private var refusalLog = RateLimitedLog<RefusalKind>()

    public init(verify: @escaping Verifier) {
        self.verify = verify
    }

    /// Checks one received message against `secretHex` (the store's pairing secret; nil before pairing).
    public mutating func receive(_ message: [UInt8], secretHex: String?, nowMs: Int64) -> Decision {
        guard message.count <= Self.maximumMessageBytes, let text = String(validating: message, as: UTF8.self),
              let envelope = JSONValue(text), case .object = envelope
        else { return refuse(nil, "not a command envelope (a JSON object of at most \(Self.maximumMessageBytes) bytes)", .malformed, nowMs) }
        let id = envelope["id"]?.string.flatMap { FleetCommand.isValidID($0) ? $0 : nil }
        guard let id else { return refuse(nil, "the command has no valid id", .malformed, nowMs) }
        guard let payload = envelope["payload"]?.string, let macHex = envelope["hmac"]?.string else {
            return refuse(id, "the command needs a payload (text) and an hmac", .malformed, nowMs)
        }
        guard let secretHex, let key = Hex.bytes(secretHex), !key.isEmpty else {
            return refuse(id, "this car has no pairing secret to check commands with (`fairfuel pairing-secret`)", .noSecret, nowMs)
        }
        guard let mac = Hex.bytes(macHex), mac.count == 32, verify(key, FleetCommand.signedMessage(id: id, payload: payload), mac) else {
            return refuse(id, "the command's HMAC does not match this car's pairing secret", .unauthenticated, nowMs)
        }
        switch FleetCommand.parse(id: id, payload: payload) {
        case let .success(command):
            return Decision(verdict: .apply(command), logLine: nil)
        case let .failure(error):
            return refuse(id, error.description, .malformed, nowMs)
        }
    }

    private mutating func refuse(_ id: String?, _ reason: String, _ kind: RefusalKind, _ nowMs: Int64) -> Decision {
        var line: String?
        if case let .line(suppressed) = refusalLog.admit(kind, nowMs: nowMs) {
            line = "command \(id ?? "(no id)") refused: \(reason)"
                + (suppressed > 0 ? " (\(suppressed) more refused in the minute before, not logged)" : "")
        }
        return Decision(verdict: .refuse(id: id, reason: reason), logLine: line)
    }

    /// The message for `…/command/result`: `{"id":…,"outcome":…,"reason":…}`.
    public static func result(id: String?, outcome: Outcome, reason: String?) -> [UInt8] {
        var json = JSONLine()
        json.add("id", id)
        json.add("outcome", outcome.rawValue)
        json.add("reason", reason)
        return Array(json.string.utf8)
    }
}
