import RealModule

/// Corrupts the MCU-to-host byte stream: single-bit errors at a byte error rate, and
/// bursts of random bytes (a loose connector, a motor starting).
struct LineNoiseInjector: Sendable {
    private(set) var settings: LineNoiseSettings
    private var random: SplitMix
    /// Clean bytes before the next flipped one.
    private var cleanBytesLeft = Int.max

    init(settings: LineNoiseSettings, seed: UInt64) {
        self.settings = settings
        random = SplitMix(seed: seed)
        redraw()
    }

    mutating func change(to settings: LineNoiseSettings) {
        self.settings = settings
        redraw()
    }

    private mutating func redraw() {
        let p = settings.byteErrorRate
        guard p > 0 else {
            cleanBytesLeft = .max
            return
        }
        guard p < 1 else {
            cleanBytesLeft = 0
            return
        }
        // Geometric gap between corrupted bytes.
        let gap = Double.log(max(1 - random.unit(), 1e-12)) / Double.log(1 - p)
        cleanBytesLeft = gap > 1e12 ? .max : Int(gap)
    }

    /// Flips bits in `bytes` at the configured rate; returns how many bytes were hit.
    @discardableResult
    mutating func corrupt(_ bytes: inout [UInt8]) -> Int {
        guard settings.byteErrorRate > 0 else { return 0 }
        var hits = 0
        var index = 0
        while true {
            if cleanBytesLeft >= bytes.count - index {
                cleanBytesLeft -= bytes.count - index
                return hits
            }
            index += cleanBytesLeft
            bytes[index] ^= 1 << UInt8(random.next() % 8)
            hits += 1
            index += 1
            redraw()
        }
    }

    /// Simulated milliseconds to the next garbage burst; nil when bursts are off.
    mutating func nextBurstGap() -> Int64? {
        guard settings.garbageBurstsPerMinute > 0 else { return nil }
        return max(1, Int64(random.exponential(mean: 60_000 / settings.garbageBurstsPerMinute)))
    }

    /// `count` random bytes; a few of them 0x00, as on a real line.
    mutating func garbage(count: Int? = nil) -> [UInt8] {
        let length = count ?? (8 + Int(random.next() % 57))
        return (0..<length).map { _ in
            random.chance(0.06) ? 0 : UInt8(truncatingIfNeeded: random.next())
        }
    }
}
