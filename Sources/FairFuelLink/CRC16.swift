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

    @inline(__always)
    public mutating func update(_ byte: UInt8) {
        value = (value << 8) ^ CRC16.table[Int(UInt8(truncatingIfNeeded: value >> 8) ^ byte)]
    }

    public mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        for byte in bytes { update(byte) }
    }

    /// The CRC of `bytes` in one call.
    public static func checksum<C: Collection>(_ bytes: C) -> UInt16 where C.Element == UInt8 {
        var crc = CRC16()
        crc.update(bytes)
        return crc.value
    }
}
