/// Big-endian field reads from a beacon frame, offsets relative to the slice's start.
///
/// Callers check the slice's length first; these only trap on a programming error.
enum BeaconBytes {
    @inline(__always)
    static func uint16(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> UInt16 {
        let index = bytes.startIndex + offset
        return UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
    }

    @inline(__always)
    static func uint32(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> UInt32 {
        UInt32(uint16(bytes, offset)) << 16 | UInt32(uint16(bytes, offset + 2))
    }

    /// `count` (at most 8) bytes as one big-endian number.
    @inline(__always)
    static func uint64(_ bytes: ArraySlice<UInt8>, _ offset: Int, count: Int) -> UInt64 {
        var value: UInt64 = 0
        var index = bytes.startIndex + offset
        for _ in 0..<count {
            value = value << 8 | UInt64(bytes[index])
            index += 1
        }
        return value
    }

    @inline(__always)
    static func int8(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> Int8 {
        Int8(bitPattern: bytes[bytes.startIndex + offset])
    }
}
