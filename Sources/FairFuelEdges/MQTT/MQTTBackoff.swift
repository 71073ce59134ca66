/// How long a client waits before its next connection attempt.
///
/// The wait doubles from the minimum with each failure since the last CONNACK, up to the
/// maximum. A broker that comes back after an outage would otherwise hear every car that lost
/// it at the same moment again at the same moments; `jitterPercent` of each wait is drawn per
/// client and attempt ("equal jitter": the wait lies between (100 − jitter) % of the doubled
/// delay and all of it), so a fleet spreads out. The draw is a hash of the client id and the
/// attempt, not a random generator: different cars differ, and one car's waits repeat exactly
/// in a test.
public struct MQTTBackoff: Sendable, Equatable {
    public var minimumMs: Int64
    public var maximumMs: Int64
    /// 0 to 100: how much of each wait is drawn.
    public var jitterPercent: Int

    public init(minimumMs: Int64, maximumMs: Int64, jitterPercent: Int) {
        self.minimumMs = max(1, minimumMs)
        self.maximumMs = max(self.minimumMs, maximumMs)
        self.jitterPercent = min(100, max(0, jitterPercent))
    }

    /// The wait after the `failures`-th failure in a row (1: the first), for `clientID`.
    public func delayMs(failures: Int, clientID: String) -> Int64 {
        let shift = Int64(min(max(0, failures - 1), 30))
        let doubled = min(maximumMs, minimumMs << shift)
        let spread = doubled * Int64(jitterPercent) / 100
        guard spread > 0 else { return doubled }
        let drawn = Int64(Double(spread) * Self.unitDraw(clientID: clientID, attempt: failures))
        return max(minimumMs, doubled - drawn)
    }

    /// A number in [0, 1) from the client id and the attempt: FNV-1a over the id, then
    /// SplitMix64's finaliser over that and the attempt.
    static func unitDraw(clientID: String, attempt: Int) -> Double {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in clientID.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        var mixed = hash &+ UInt64(truncatingIfNeeded: attempt) &* 0x9E37_79B9_7F4A_7C15
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        mixed ^= mixed >> 31
        return Double(mixed >> 11) * 0x1.0p-53
    }
}
