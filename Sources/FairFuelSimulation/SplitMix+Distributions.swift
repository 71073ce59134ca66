import RealModule

extension SplitMix {
    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Uniform in [low, high).
    mutating func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * unit() }

    /// Uniform integer in `range`.
    mutating func integer(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// Standard normal (Box-Muller).
    mutating func gaussian() -> Double {
        let u1 = max(unit(), 1e-12)
        let u2 = unit()
        return (-2 * Double.log(u1)).squareRoot() * Double.cos(2 * Double.pi * u2)
    }

    /// Exponential with the given mean.
    mutating func exponential(mean: Double) -> Double { -mean * Double.log(max(1 - unit(), 1e-12)) }

    /// A generator for a sub-stream, so that one concern's draws never shift another's.
    mutating func fork(_ salt: UInt64) -> SplitMix { SplitMix(seed: next() ^ (salt &* 0x9E37_79B9_7F4A_7C15)) }
}
