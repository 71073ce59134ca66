import FairFuelCore
import Testing

@testable import FairFuelParsers

@Suite("NFC driver URI and tag identities")
struct NFCDriverURITests {
    static let id = UUID128("0f8fad5b-d9cb-469f-a165-70867728950e")!

    @Test func encodesTheNFCWriteMessage() throws {
        let message = DriverURI(driverID: Self.id).ndefMessage
        let uri = Array("fairfuel://driver/0f8fad5b-d9cb-469f-a165-70867728950e".utf8)
        #expect(message == [0xD1, 0x01, UInt8(uri.count + 1), 0x55, 0x00] + uri)
        let record = try #require(Array(try NDEFMessage(message[...])).first)
        #expect(record.isMessageBegin && record.isMessageEnd && record.isShortRecord && record.isWellKnown("U"))
        let uriRecord = try NDEFURIRecord(record)
        #expect(uriRecord.prefixCode == 0 && uriRecord.uri == DriverURI(driverID: Self.id).description)
        #expect(DriverURI(uriRecord)?.driverID == Self.id)
    }

    @Test(arguments: [
        "fairfuel://driver/0f8fad5b-d9cb-469f-a165-70867728950e",
        "fairfuel://driver/0F8FAD5B-D9CB-469F-A165-70867728950E",
        "FairFuel://driver/0f8fad5b-D9CB-469f-a165-70867728950e",
    ])
    func recognisesTheURIInEitherCase(text: String) {
        #expect(DriverURI(text)?.driverID == Self.id)
    }

    @Test(arguments: [
        "fairfuel://driver/0f8fad5b-d9cb-469f-a165-70867728950", "fairfuel://driver/0f8fad5b-d9cb-469f-a165-70867728950e/",
        "fairfuel://Driver/0f8fad5b-d9cb-469f-a165-70867728950e", "fairfuel:/driver/0f8fad5b-d9cb-469f-a165-70867728950e",
        "https://driver/0f8fad5b-d9cb-469f-a165-70867728950e", "fairfuel://driver/0f8fad5bd9cb469fa16570867728950e",
        "fairfuel://driver/0f8fad5b-d9cb-469f-a165-70867728950g", "",
    ])
    func refusesOtherURIs(text: String) {
        #expect(DriverURI(text) == nil)
    }

    @Test func abbreviatedRecordIsNotADriverURI() throws {
        // Code 0x03 ("http://") can never stand for "fairfuel:".
        let payload: [UInt8] = [0x03] + Array("fairfuel://driver/0f8fad5b-d9cb-469f-a165-70867728950e".utf8)
        #expect(DriverURI(try NDEFURIRecord(payload: payload[...])) == nil)
    }

    @Test func tagWithDriverURIYieldsDriverThenUID() throws {
        let ndef = DriverURI(driverID: Self.id).ndefMessage
        let identities = try NFCTagIdentities(technology: .iso14443A, uid: [0x04, 0xA8, 0x1D, 0x12, 0xDE, 0x5F, 0x80][...], ndef: ndef[...])
        #expect(Array(identities).map(\.description) == ["driver:0f8fad5b-d9cb-469f-a165-70867728950e", "uid:04:A8:1D:12:DE:5F:80"])
        #expect(identities.ndefError == nil)
    }

    @Test func driverURIAfterOtherRecords() throws {
        var ndef = try NDEFEncoder.record(
            format: .wellKnown, type: [0x54], payload: Hex.bytes("02656e4869")![...], isMessageBegin: true, isMessageEnd: false)
        ndef += try NDEFEncoder.record(
            format: .wellKnown, type: [0x55], payload: [0x04] + Array("example.com".utf8)[...], isMessageBegin: false, isMessageEnd: false)
        ndef += try NDEFEncoder.record(
            format: .wellKnown, type: [0x55], payload: [0x00] + Array(DriverURI(driverID: Self.id).description.utf8)[...],
            isMessageBegin: false, isMessageEnd: true)
        let identities = try NFCTagIdentities(technology: .iso15693, uid: [UInt8](repeating: 0xE0, count: 8)[...], ndef: ndef[...])
        #expect(identities.driverID == Self.id)
    }

    @Test func tagWithoutNDEFOrWithBrokenNDEFYieldsTheUID() throws {
        let uid: [UInt8] = [0xB0, 0xBB, 0x89, 0x04]
        let empty = try NFCTagIdentities(technology: .iso14443A, uid: uid[...], ndef: [])
        #expect(Array(empty) == [.uid(try TagUID(bytes: uid[...]))] && empty.ndefError == nil)
        let broken = try NFCTagIdentities(technology: .iso14443A, uid: uid[...], ndef: [0xD1, 0x01, 0x40, 0x55][...])
        #expect(Array(broken) == [.uid(try TagUID(bytes: uid[...]))])
        #expect(broken.ndefError == .truncated(recordIndex: 0, field: .payload, neededBytes: 64, availableBytes: 0))
    }

    @Test func impossibleUIDIsRefused() {
        #expect(throws: TagUIDError.impossibleUIDLength(technology: .feliCa, length: 7)) {
            try NFCTagIdentities(technology: .feliCa, uid: [UInt8](repeating: 1, count: 7)[...], ndef: [])
        }
    }
}

@Suite("NFC identity storage")
struct NFCIdentityStorageTests {
    /// Trivially copyable types hold no references, so copying them never touches the heap.
    @Test func identitiesHaveNoHeapStorage() {
        #expect(_isPOD(TagUID.self))
        #expect(_isPOD(TagIdentity.self))
        #expect(_isPOD(DriverURI.self))
        #expect(MemoryLayout<TagUID>.size <= 11)
    }
}
