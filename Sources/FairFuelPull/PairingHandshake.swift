import FairFuelEdges

/// The MACs of the pairing handshake (docs/usb-pull-protocol.md, "Pairing").
///
/// Each side proves it knows the secret by a MAC over both fresh nonces; the labels
/// differ so that one side's proof can never be replayed as the other's.
public enum PairingHandshake {
    static let clientLabel = Array("fairfuel-pull-v1 laptop".utf8)
    static let serverLabel = Array("fairfuel-pull-v1 dongle".utf8)

    /// The laptop's proof: HMAC(secret, "fairfuel-pull-v1 laptop" || server_nonce || client_nonce).
    public static func clientMAC(secret: PairingSecret, serverNonce: [UInt8], clientNonce: [UInt8]) -> [UInt8] {
        HMACSHA256.mac(key: secret.bytes, message: clientLabel + serverNonce + clientNonce)
    }

    /// The dongle's proof: HMAC(secret, "fairfuel-pull-v1 dongle" || server_nonce || client_nonce).
    public static func serverMAC(secret: PairingSecret, serverNonce: [UInt8], clientNonce: [UInt8]) -> [UInt8] {
        HMACSHA256.mac(key: secret.bytes, message: serverLabel + serverNonce + clientNonce)
    }
}

/// Limits pairing tries: the first `freeTries` failures cost nothing, each one after locks
/// the dongle for a delay that doubles up to a ceiling. Times are monotonic milliseconds.
public struct PairingThrottle: Sendable, Equatable {
    public var freeTries: Int
    public var firstDelayMs: Int64
    public var maximumDelayMs: Int64
    public private(set) var failures = 0
    public private(set) var lockedUntilMs: Int64 = 0

    public init(freeTries: Int = 3, firstDelayMs: Int64 = 2_000, maximumDelayMs: Int64 = 300_000) {
        self.freeTries = freeTries
        self.firstDelayMs = firstDelayMs
        self.maximumDelayMs = maximumDelayMs
    }

    /// Milliseconds left before another try is heard (0: now).
    public func waitMs(now: Int64) -> Int64 { max(0, lockedUntilMs - now) }

    public mutating func recordFailure(now: Int64) {
        failures += 1
        let over = failures - freeTries
        guard over >= 0 else { return }
        var delay = firstDelayMs
        for _ in 0..<min(over, 30) where delay < maximumDelayMs { delay *= 2 }
        lockedUntilMs = now + min(delay, maximumDelayMs)
    }

    public mutating func recordSuccess() {
        failures = 0
        lockedUntilMs = 0
    }
}
