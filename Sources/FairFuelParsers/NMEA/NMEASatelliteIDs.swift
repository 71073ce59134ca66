/// The satellite ids a GSA sentence lists as used, kept inline (the first twelve).
public struct NMEASatelliteIDs: Hashable, Sendable, RandomAccessCollection {
    private var low: UInt64 = 0  // ids 0...3, 16 bits each
    private var middle: UInt64 = 0  // ids 4...7
    private var high: UInt64 = 0  // ids 8...11
    private var stored: UInt8 = 0
    /// All non-empty id fields, including any beyond the twelve stored.
    public private(set) var listedCount: Int = 0

    public static let storedCapacity = 12

    public init() {}

    public init(_ ids: [UInt16]) {
        for id in ids { append(id) }
    }

    /// Adds `id`; ids beyond the twelfth are only counted.
    public mutating func append(_ id: UInt16) {
        listedCount += 1
        guard Int(stored) < NMEASatelliteIDs.storedCapacity else { return }
        let shift = UInt64(stored % 4) * 16
        switch stored / 4 {
        case 0: low |= UInt64(id) << shift
        case 1: middle |= UInt64(id) << shift
        default: high |= UInt64(id) << shift
        }
        stored += 1
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { Int(stored) }

    public subscript(position: Int) -> UInt16 {
        precondition(position >= 0 && position < Int(stored), "index outside the stored ids")
        let word = position < 4 ? low : (position < 8 ? middle : high)
        return UInt16(truncatingIfNeeded: word >> (UInt64(position % 4) * 16))
    }
}
