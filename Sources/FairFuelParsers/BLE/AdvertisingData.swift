/// One advertisement's AD structures, decoded in a single pass without allocating.
///
/// Scalars (flags, TX power, names, counts) are read at init; lists (manufacturer data,
/// service data, service UUIDs) are read lazily from `bytes` when iterated.
public struct AdvertisingData: Sendable {
    public let bytes: ArraySlice<UInt8>
    /// The Flags structure; nil when absent or not exactly one byte.
    public private(set) var flags: BLEAdvertisingFlags?
    /// The TX Power Level structure in dBm; nil when absent or not exactly one byte.
    public private(set) var txPowerDBm: Int8?
    /// The first non-empty Complete Local Name, UTF-8 as sent.
    public private(set) var completeLocalNameBytes: ArraySlice<UInt8>?
    /// The first non-empty Shortened Local Name, UTF-8 as sent.
    public private(set) var shortLocalNameBytes: ArraySlice<UInt8>?
    /// Well-formed AD structures read (of any type).
    public private(set) var structureCount = 0
    /// Structures of a known type whose value has the wrong size for it (they are ignored).
    public private(set) var malformedStructureCount = 0
    /// Zero length bytes skipped as padding.
    public private(set) var paddingByteCount = 0
    /// Bytes of the truncated structure that ended the data; 0 when it ended cleanly.
    public private(set) var truncatedByteCount = 0

    public init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        var iterator = ADStructures(bytes).makeIterator()
        while let structure = iterator.next() {
            structureCount += 1
            let value = structure.value
            switch structure.type {
            case .flags:
                if value.count == 1 {
                    if flags == nil { flags = BLEAdvertisingFlags(rawValue: value[value.startIndex]) }
                } else {
                    malformedStructureCount += 1
                }
            case .txPowerLevel:
                if value.count == 1 {
                    if txPowerDBm == nil { txPowerDBm = Int8(bitPattern: value[value.startIndex]) }
                } else {
                    malformedStructureCount += 1
                }
            case .completeLocalName:
                if completeLocalNameBytes == nil, !value.isEmpty { completeLocalNameBytes = value }
            case .shortLocalName:
                if shortLocalNameBytes == nil, !value.isEmpty { shortLocalNameBytes = value }
            case .manufacturerData:
                if value.count < 2 { malformedStructureCount += 1 }
            default:
                if let width = structure.type.serviceDataUUIDWidth, value.count < width {
                    malformedStructureCount += 1
                } else if let width = structure.type.serviceUUIDListWidth, value.count % width != 0 {
                    malformedStructureCount += 1
                }
            }
        }
        paddingByteCount = iterator.paddingByteCount
        truncatedByteCount = iterator.truncatedByteCount
    }

    public var structures: ADStructures { ADStructures(bytes) }
    public var manufacturerData: ManufacturerDataList { ManufacturerDataList(structures) }
    public var serviceData: ServiceDataList { ServiceDataList(structures) }
    public var serviceUUIDs: ServiceUUIDList { ServiceUUIDList(structures) }

    /// The complete local name, else the shortened one; nil when neither is present and non-empty.
    public var localNameBytes: ArraySlice<UInt8>? { completeLocalNameBytes ?? shortLocalNameBytes }

    /// `localNameBytes` for display: invalid UTF-8 becomes U+FFFD and trailing NULs are dropped.
    public var localName: String? {
        guard var name = localNameBytes else { return nil }
        while let last = name.last, last == 0 { name.removeLast() }
        return String(decoding: name, as: UTF8.self)
    }
}
