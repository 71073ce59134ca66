/// A checked NDEF message whose records are read lazily from its bytes, without copying.
///
/// Init checks the whole message once: every record decodes (`NDEFRecord.decode`), the first
/// has MB and no other does, the last has ME and no bytes follow it, none is chunked (CF) or
/// uses TNF 6. Empty bytes are a message of no records (a tag with no NDEF).
public struct NDEFMessage: Sequence, Sendable {
    public let bytes: ArraySlice<UInt8>
    public let recordCount: Int

    public init(_ bytes: ArraySlice<UInt8>) throws(NDEFError) {
        var rest = bytes
        var index = 0
        while !rest.isEmpty {
            let record = try NDEFRecord.decode(from: &rest, recordIndex: index)
            if index == 0, !record.isMessageBegin { throw .missingMessageBegin }
            if index > 0, record.isMessageBegin { throw .unexpectedMessageBegin(recordIndex: index) }
            if record.isChunked { throw .chunkedRecord(recordIndex: index) }
            if record.typeNameFormat == .unchanged { throw .unchangedOutsideChunk(recordIndex: index) }
            index += 1
            if record.isMessageEnd {
                guard rest.isEmpty else {
                    throw .trailingBytes(afterRecordIndex: index - 1, count: rest.count)
                }
            } else if rest.isEmpty {
                throw .missingMessageEnd(recordCount: index)
            }
        }
        self.bytes = bytes
        recordCount = index
    }

    public func makeIterator() -> Iterator { Iterator(rest: bytes) }

    public var underestimatedCount: Int { recordCount }

    public struct Iterator: IteratorProtocol, Sendable {
        var rest: ArraySlice<UInt8>

        public mutating func next() -> NDEFRecord? {
            guard !rest.isEmpty else { return nil }
            // The message was checked at init, so decoding cannot fail here.
            return try? NDEFRecord.decode(from: &rest)
        }
    }
}
