#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A first-order autoregressive process: correlated noise with a stationary standard deviation.
public struct AR1: Sendable {
    public let sigma: Double
    /// Correlation time, seconds.
    public let tauSeconds: Double
    public private(set) var value: Double

    public init(sigma: Double, tauSeconds: Double, random: inout SeededGenerator) {
        self.sigma = sigma
        self.tauSeconds = tauSeconds
        value = sigma * random.gaussian()
    }

    /// Advances by `seconds` and returns the new value.
    @discardableResult
    public mutating func step(_ seconds: Double, random: inout SeededGenerator) -> Double {
        let rho = exp(-seconds / max(tauSeconds, 1e-6))
        value = rho * value + sigma * (1 - rho * rho).squareRoot() * random.gaussian()
        return value
    }
}
