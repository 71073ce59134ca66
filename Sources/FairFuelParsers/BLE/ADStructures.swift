/// The AD structures of one advertisement, read in order without copying or allocating.
///
/// Each structure is `length type value…`, where `length` counts the type byte and the value.
/// Malformed data is handled so: a length byte of zero is padding (the Core Specification's
/// "early termination"); it is skipped and counted, and reading goes on with the next byte,
/// because host stacks hand over an advertisement zero-padded to 31 bytes followed by its scan
/// response (all zeros then yields nothing). A structure whose length runs past the end, or a
/// final length byte with no type byte, is truncated: it ends the data, its bytes are counted
/// in `truncatedByteCount`, and nothing past the end is read.
public struct ADStructures: Sequence, Sendable {
    public let bytes: ArraySlice<UInt8>

    public init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    public func makeIterator() -> Iterator { Iterator(bytes) }

    public struct Iterator: IteratorProtocol, Sendable {
        private let bytes: ArraySlice<UInt8>
        private var position: Int
        /// Zero length bytes skipped so far.
        public private(set) var paddingByteCount = 0
        /// Bytes of the truncated structure that ended the data; 0 when the data ended cleanly.
        public private(set) var truncatedByteCount = 0

        init(_ bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            position = bytes.startIndex
        }

        public mutating func next() -> ADStructure? {
            let end = bytes.endIndex
            while position < end {
                let length = Int(bytes[position])
                if length == 0 {
                    paddingByteCount += 1
                    position += 1
                    continue
                }
                // `length` covers the type and the value; the length byte itself comes first.
                guard end - position > length else {
                    truncatedByteCount = end - position
                    position = end
                    return nil
                }
                let type = ADType(rawValue: bytes[position + 1])
                let value = bytes[(position + 2)..<(position + 1 + length)]
                position += 1 + length
                return ADStructure(type: type, value: value)
            }
            return nil
        }
    }
}
