import FairFuelCore
import Testing

@testable import FairFuelParsers

@Suite("NFC tag UID")
struct NFCTagUIDTests {
    @Test(arguments: [
        (NFCTechnology.iso14443A, 4, true), (.iso14443A, 7, true), (.iso14443A, 10, true),
        (.iso14443A, 8, false), (.iso14443A, 5, false), (.iso14443A, 0, false), (.iso14443A, 11, false),
        (.iso14443B, 4, true), (.iso14443B, 7, false), (.iso14443B, 8, false),
        (.feliCa, 8, true), (.feliCa, 4, false), (.feliCa, 10, false),
        (.iso15693, 8, true), (.iso15693, 7, false),
    ])
    func lengthsPerTechnology(technology: NFCTechnology, length: Int, accepted: Bool) throws {
        let bytes = [UInt8](repeating: 0x04, count: length)[...]
        if accepted {
            #expect(try TagUID(bytes: bytes, technology: technology).count == length)
        } else {
            #expect(throws: TagUIDError.impossibleUIDLength(technology: technology, length: length)) {
                try TagUID(bytes: bytes, technology: technology)
            }
        }
    }

    @Test func printsUpperCaseHexWithAndWithoutColons() throws {
        let uid = try TagUID(bytes: [0x04, 0x8d, 0x24, 0x32, 0x27, 0x3b, 0x80][...], technology: .iso14443A)
        #expect(uid.description == "04:8D:24:32:27:3B:80")
        #expect(uid.plainHex == "048D2432273B80")
        #expect(Array(uid) == [0x04, 0x8d, 0x24, 0x32, 0x27, 0x3b, 0x80])
        let ten = try TagUID(bytes: Array(1...10)[...])
        #expect(ten.description == "01:02:03:04:05:06:07:08:09:0A")
        #expect(ten[9] == 10)
    }

    @Test(arguments: ["04:8d:24:32:27:3b:80", "048D2432273B80", "048d2432273b80", "04:8D:2432:27:3B80"])
    func parsesHexTextInAnyCase(text: String) throws {
        #expect(try TagUID(parsing: text).plainHex == "048D2432273B80")
    }

    @Test func equalityAndHashingUseLengthAndBytes() throws {
        let four = try TagUID(bytes: [0, 0, 0, 0][...])
        let seven = try TagUID(bytes: [0, 0, 0, 0, 0, 0, 0][...])
        #expect(four != seven)
        #expect(Set([four, seven, try TagUID(parsing: "00000000")]).count == 2)
        #expect(MemoryLayout<TagUID>.size <= 16)
    }

    @Test(arguments: [
        ("", TagUIDError.empty),
        ("04:8D:24", .impossibleUIDLength(technology: nil, length: 3)),
        ("0102030405", .impossibleUIDLength(technology: nil, length: 5)),
        ("0102030405060708090A0B", .impossibleUIDLength(technology: nil, length: 11)),
        ("048D2432273B8", .oddDigitCount(text: "048D2432273B8")),
        ("04:8D:24:32:27:3B:8G", .notHex(text: "04:8D:24:32:27:3B:8G", offset: 19)),
        ("04-8D-24-32", .notHex(text: "04-8D-24-32", offset: 2)),
        (":04:8D:24:32", .misplacedSeparator(text: ":04:8D:24:32", offset: 0)),
        ("04:8D:24:32:", .misplacedSeparator(text: "04:8D:24:32:", offset: 11)),
        ("04::8D:24:32", .misplacedSeparator(text: "04::8D:24:32", offset: 3)),
        ("0:48D2432", .misplacedSeparator(text: "0:48D2432", offset: 1)),
    ])
    func refusesBadText(text: String, error: TagUIDError) {
        #expect(throws: error) { try TagUID(parsing: text) }
    }

    @Test(arguments: [
        (UInt16(0x0004), 4), (0x0044, 7), (0x0344, 7), (0x0304, 4), (0x0084, 10), (0x0042, 7), (0x0002, 4),
    ])
    func iso14443AUIDSizeFromATQA(atqa: UInt16, length: Int) {
        #expect(TagUID.iso14443AUIDLength(atqa: atqa) == length)
    }

    @Test func checksTheATQAAgainstTheUID() throws {
        let uid = try TagUID(parsing: "B0BB8904")
        try uid.checkISO14443A(atqa: 0x0004)
        #expect(throws: TagUIDError.uidSizeMismatch(atqa: 0x0044, expectedLength: 7, actualLength: 4)) {
            try uid.checkISO14443A(atqa: 0x0044)
        }
        #expect(throws: TagUIDError.reservedUIDSize(atqa: 0x00C4)) { try uid.checkISO14443A(atqa: 0x00C4) }
    }

    @Test func errorsExplainThemselves() {
        #expect(TagUIDError.impossibleUIDLength(technology: .feliCa, length: 7).description == "a FeliCa UID has 8 bytes, not 7")
        #expect(TagUIDError.impossibleUIDLength(technology: .iso14443A, length: 8).description.contains("4, 7 or 10"))
    }
}
