/// CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, xorout 0.
public struct CRC16: Sendable {
    public private(set) var value: UInt16 = 0xFFFF

    public init() {}

    @usableFromInline
    static let table: [UInt16] = (0..<256).map { index in
        var crc = UInt16(index) << 8
        for _ in 0..<8 {
            crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1
        }
        return crc
    }

    /// Slicing-by-4 tables: entry `k * 256 + i` is the CRC contribution of byte `i`
    /// followed by `k` zero bytes, so that four bytes are folded in per step.
    static let sliced: [UInt16] = {
        var tables = [UInt16](repeating: 0, count: 1024)
        for i in 0..<256 { tables[i] = table[i] }
        for k in 1..<4 {
            for i in 0..<256 {
                let previous = tables[(k - 1) * 256 + i]
                tables[k * 256 + i] = (previous << 8) ^ table[Int(previous >> 8)]
            }
        }
        return tables
    }()

    @inline(__always)
    public mutating func update(_ byte: UInt8) {
        value = (value << 8) ^ CRC16.table[Int(UInt8(truncatingIfNeeded: value >> 8) ^ byte)]
    }

    public mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        for byte in bytes { update(byte) }
    }

    /// The CRC of `bytes` in one call; the decoder's hot path.
    public static func checksum(_ bytes: Span<UInt8>) -> UInt16 {
        let tables = CRC16.sliced.span
        precondition(tables.count == 1024)
        var value: UInt16 = 0xFFFF
        var index = 0
        let count = bytes.count
        while index + 4 <= count {
            let folded = value ^ (UInt16(bytes[unchecked: index]) << 8 | UInt16(bytes[unchecked: index + 1]))
            value = tables[unchecked: 768 + Int(folded >> 8)]
                ^ tables[unchecked: 512 + Int(folded & 0xFF)]
                ^ tables[unchecked: 256 + Int(bytes[unchecked: index + 2])]
                ^ tables[unchecked: Int(bytes[unchecked: index + 3])]
            index += 4
        }
        while index < count {
            let slot = UInt8(truncatingIfNeeded: value >> 8) ^ bytes[unchecked: index]
            value = (value << 8) ^ tables[unchecked: Int(slot)]
            index += 1
        }
        return value
    }

    /// The CRC of `bytes` in one call.
    public static func checksum<C: Collection>(_ bytes: C) -> UInt16 where C.Element == UInt8 {
        var crc = CRC16()
        crc.update(bytes)
        return crc.value
    }
}
