import FairFuelCore
import Testing

@testable import FairFuelParsers

@Suite("NFC NDEF records and messages")
struct NFCNDEFRecordTests {
    private func bytes(_ hex: String) -> [UInt8] { Hex.bytes(hex.filter { $0 != " " })! }

    private func decodeRecord(_ hex: String) throws(NDEFError) -> NDEFRecord {
        var slice = bytes(hex)[...]
        return try NDEFRecord.decode(from: &slice)
    }

    @Test func shortRecordWithID() throws {
        // MB|ME|SR|IL, TNF 1, type "X", id "id", payload "payload".
        var slice = bytes("d9010702 58 6964 7061796c6f6164 ff")[...]
        let record = try NDEFRecord.decode(from: &slice)
        #expect(record.isMessageBegin && record.isMessageEnd && !record.isChunked && record.isShortRecord)
        #expect(record.typeNameFormat == .wellKnown)
        #expect(Array(record.type) == Array("X".utf8) && Array(record.id) == Array("id".utf8))
        #expect(Array(record.payload) == Array("payload".utf8))
        #expect(Array(slice) == [0xFF])
    }

    @Test func longRecord() throws {
        let payload = [UInt8](repeating: 0x70, count: 256)
        let record = try decodeRecord("c1010000010055" + Hex.string(payload))
        #expect(!record.isShortRecord && record.payload.count == 256)
    }

    @Test func recordFieldsAreViewsIntoTheInput() throws {
        let input = bytes("d1010155 00")
        var slice = input[...]
        let record = try NDEFRecord.decode(from: &slice)
        #expect(record.type.startIndex == 3 && record.payload.startIndex == 4)
    }

    @Test(arguments: [
        ("", NDEFError.truncated(recordIndex: 0, field: .header, neededBytes: 1, availableBytes: 0)),
        ("d1", .truncated(recordIndex: 0, field: .typeLength, neededBytes: 1, availableBytes: 0)),
        ("d101", .truncated(recordIndex: 0, field: .payloadLength, neededBytes: 1, availableBytes: 0)),
        ("c10100", .truncated(recordIndex: 0, field: .payloadLength, neededBytes: 4, availableBytes: 1)),
        ("d901 01", .truncated(recordIndex: 0, field: .idLength, neededBytes: 1, availableBytes: 0)),
        ("d10101", .truncated(recordIndex: 0, field: .type, neededBytes: 1, availableBytes: 0)),
        ("d1010555 0102", .truncated(recordIndex: 0, field: .payload, neededBytes: 5, availableBytes: 2)),
        ("d101ff55", .truncated(recordIndex: 0, field: .payload, neededBytes: 255, availableBytes: 0)),
        ("c101ffffffff55 00", .truncated(recordIndex: 0, field: .payload, neededBytes: 0xFFFF_FFFF, availableBytes: 1)),
        ("c1017fffffff55", .truncated(recordIndex: 0, field: .payload, neededBytes: 0x7FFF_FFFF, availableBytes: 0)),
        ("d7000000", .reservedTypeNameFormat(recordIndex: 0)),
        ("d1000000", .missingType(recordIndex: 0, format: .wellKnown)),
        ("d4000000", .missingType(recordIndex: 0, format: .external)),
        ("d0010000 55", .unexpectedField(recordIndex: 0, field: .type, format: .empty, length: 1)),
        ("d8000001 00", .unexpectedField(recordIndex: 0, field: .id, format: .empty, length: 1)),
        ("d0000100", .unexpectedField(recordIndex: 0, field: .payload, format: .empty, length: 1)),
        ("d5010000 55", .unexpectedField(recordIndex: 0, field: .type, format: .unknown, length: 1)),
    ])
    func refusesBrokenRecords(hex: String, error: NDEFError) {
        #expect(throws: error) { try decodeRecord(hex) }
    }

    @Test func failedDecodeLeavesTheInputAlone() {
        var slice = bytes("d1010555 0102")[...]
        #expect(throws: NDEFError.self) { try NDEFRecord.decode(from: &slice) }
        #expect(slice.count == 6)
    }

    @Test func messageOfSeveralRecords() throws {
        let message = try NDEFMessage(bytes("91010a55036e666370792e6f7267 1101075402656e54585431 5101075402656e54585432")[...])
        #expect(message.recordCount == 3)
        let records = Array(message)
        #expect(records.map { String(decoding: $0.type, as: UTF8.self) } == ["U", "T", "T"])
        #expect(records.map(\.isMessageBegin) == [true, false, false])
        #expect(records.map(\.isMessageEnd) == [false, false, true])
    }

    @Test func emptyBytesAreAnEmptyMessage() throws {
        let message = try NDEFMessage([])
        #expect(message.recordCount == 0 && Array(message).isEmpty)
        #expect(try NDEFMessage(bytes("d00000")[...]).recordCount == 1)
    }

    @Test(arguments: [
        ("150000 160000 560000", NDEFError.missingMessageBegin),
        ("950000 960000 560000", .unexpectedMessageBegin(recordIndex: 1)),
        ("950000 150000 150000", .missingMessageEnd(recordCount: 3)),
        ("950000", .missingMessageEnd(recordCount: 1)),
        ("d50000 00", .trailingBytes(afterRecordIndex: 0, count: 1)),
        ("d50000 d50000", .trailingBytes(afterRecordIndex: 0, count: 3)),
        ("b50000 560000", .chunkedRecord(recordIndex: 0)),
        ("950000 760000", .chunkedRecord(recordIndex: 1)),
        ("d60000", .unchangedOutsideChunk(recordIndex: 0)),
        ("950000 5101", .truncated(recordIndex: 1, field: .payloadLength, neededBytes: 1, availableBytes: 0)),
        ("950000 57000000", .reservedTypeNameFormat(recordIndex: 1)),
    ])
    func refusesBrokenMessages(hex: String, error: NDEFError) {
        #expect(throws: error) { try NDEFMessage(bytes(hex)[...]) }
    }

    @Test func encoderBuildsShortAndLongRecords() throws {
        #expect(try NDEFEncoder.record(format: .empty, type: [], payload: [], isMessageBegin: false, isMessageEnd: false) == [0x10, 0x00, 0x00])
        let withID = try NDEFEncoder.record(
            format: .wellKnown, type: Array("X".utf8)[...], id: Array("id".utf8)[...], payload: Array("payload".utf8)[...],
            isMessageBegin: false, isMessageEnd: false)
        #expect(Hex.string(withID) == "190107025869647061796c6f6164")
        let long = try NDEFEncoder.record(
            format: .wellKnown, type: [0x58], payload: [UInt8](repeating: 0x70, count: 256)[...], isMessageBegin: true,
            isMessageEnd: true)
        #expect(Hex.string(long.prefix(7)) == "c1010000010058")
        var slice = long[...]
        #expect(try NDEFRecord.decode(from: &slice).payload.count == 256)
        #expect(throws: NDEFError.fieldTooLong(field: .type, length: 256)) {
            try NDEFEncoder.record(format: .media, type: [UInt8](repeating: 0x61, count: 256)[...], payload: [], isMessageBegin: true, isMessageEnd: true)
        }
    }
}
