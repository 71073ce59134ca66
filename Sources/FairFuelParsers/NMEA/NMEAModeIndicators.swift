/// The mode letters of a GNS sentence, one per satellite system (`AAN`: GPS, GLONASS, Galileo, ...).
///
/// Stored inline: at most eight letters are kept.
public struct NMEAModeIndicators: Hashable, Sendable {
    /// Raw letters, first in the lowest byte.
    public let packed: UInt64
    private let storedCount: UInt8

    public var count: Int { Int(storedCount) }

    public init(packed: UInt64, count: Int) {
        precondition(count >= 0 && count <= 8)
        self.packed = packed
        storedCount = UInt8(count)
    }

    public init(_ indicators: [NMEAModeIndicator]) {
        var packed: UInt64 = 0
        for (index, indicator) in indicators.prefix(8).enumerated() {
            packed |= UInt64(indicator.rawValue) << (8 * UInt64(index))
        }
        self.init(packed: packed, count: min(indicators.count, 8))
    }

    public subscript(index: Int) -> NMEAModeIndicator {
        precondition(index >= 0 && index < count)
        return NMEAModeIndicator(rawValue: UInt8(truncatingIfNeeded: packed >> (8 * UInt64(index))))!
    }

    /// Whether any system reports a valid position.
    public var anyValid: Bool {
        for index in 0..<count where self[index].isValid { return true }
        return false
    }
}
