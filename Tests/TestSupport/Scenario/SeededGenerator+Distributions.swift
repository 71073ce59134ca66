#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Draws of the distributions the scenario models use, from a seeded generator.
extension SeededGenerator {
    /// Uniform in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Uniform in `range`.
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// Standard normal (Box-Muller).
    public mutating func gaussian() -> Double {
        let u1 = max(unit(), 1e-300)
        let u2 = unit()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// Normal with this mean and standard deviation.
    public mutating func gaussian(mean: Double, sigma: Double) -> Double { mean + sigma * gaussian() }

    /// Exponential with this mean.
    public mutating func exponential(mean: Double) -> Double { -mean * log(max(1 - unit(), 1e-300)) }

    /// An integer in `range`.
    public mutating func integer(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    /// One of `items`.
    public mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &self)] }
}
