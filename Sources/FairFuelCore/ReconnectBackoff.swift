/// How long a client waits before its next connection attempt: the MCU link, gpsd and the
/// MQTT broker share it, so every reconnect in the service backs off the same way.
///
/// The wait doubles from the minimum with each failure in a row, up to the maximum. A broker
/// that comes back after an outage would otherwise hear every car that lost it at the same
/// moment again at the same moments; `jitterPercent` of each wait is drawn per client and
/// attempt ("equal jitter": the wait lies between (100 − jitter) % of the doubled delay and all
/// of it), so a fleet spreads out. The draw is a hash of the client's key and the attempt, not a
/// random generator: different cars differ, and one car's waits repeat exactly in a test. A
/// link that only this car uses (its MCU, its gpsd) needs no jitter.
public struct ReconnectBackoff: Sendable, Equatable {
    public var minimumMs: Int64
    public var maximumMs: Int64
    /// 0 to 100: how much of each wait is drawn.
    public var jitterPercent: Int

    public init(minimumMs: Int64, maximumMs: Int64, jitterPercent: Int = 0) {
        self.minimumMs = max(1, minimumMs)
        self.maximumMs = max(self.minimumMs, maximumMs)
        self.jitterPercent = min(100, max(0, jitterPercent))
    }

    /// The wait after the `failures`-th failure in a row (1: the first; 0 or less count as
    /// the first), drawn for `clientKey` (the MQTT client id).
    public func delayMs(failures: Int, clientKey: String = "") -> Int64 {
        // Doubling stops at the maximum, so no failure count and no setting can overflow.
        var doubled = minimumMs
        var doublings = failures > 1 ? failures - 1 : 0
        while doublings > 0 && doubled < maximumMs {
            doubled = doubled > maximumMs / 2 ? maximumMs : doubled * 2
            doublings -= 1
        }
        doubled = min(doubled, maximumMs)
        let spread = doubled / 100 * Int64(jitterPercent) + doubled % 100 * Int64(jitterPercent) / 100
        guard spread > 0 else { return doubled }
        let drawn = Int64(Double(spread) * Self.unitDraw(clientKey: clientKey, attempt: failures))
        return max(minimumMs, doubled - drawn)
    }

    /// A number in [0, 1) from the client's key and the attempt: FNV-1a over the key, then
    /// SplitMix64's finaliser over that and the attempt.
    static func unitDraw(clientKey: String, attempt: Int) -> Double {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in clientKey.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        var mixed = hash &+ UInt64(truncatingIfNeeded: attempt) &* 0x9E37_79B9_7F4A_7C15
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        mixed ^= mixed >> 31
        return Double(mixed >> 11) * 0x1.0p-53
    }
}
