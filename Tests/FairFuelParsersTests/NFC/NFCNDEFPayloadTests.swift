import FairFuelCore
import Testing

@testable import FairFuelParsers

@Suite("NFC NDEF URI and text payloads")
struct NFCNDEFPayloadTests {
    private func bytes(_ hex: String) -> [UInt8] { Hex.bytes(hex.filter { $0 != " " })! }

    @Test func prefixTableHas36Entries() {
        #expect(NDEFURIRecord.prefixes.count == 36)
        #expect(NDEFURIRecord.prefixes[0x23] == "urn:nfc:")
    }

    @Test func everyPrefixCodeRoundTripsThroughTheEncoder() throws {
        for (code, prefix) in NDEFURIRecord.prefixes.enumerated() {
            let uri = prefix + "x"
            let message = try NDEFEncoder.uriMessage(uri)
            let record = try #require(Array(try NDEFMessage(message[...])).first)
            let decoded = try NDEFURIRecord(record)
            #expect(decoded.uri == uri)
            // The longest matching prefix wins: "ftp://ftp." (0x08) over "ftp://" (0x0D), and so on.
            #expect(NDEFURIRecord.prefixes[Int(decoded.prefixCode)].count >= prefix.count, "code \(code)")
        }
    }

    @Test func reservedCodesAreRefusedUnlessAllowed() throws {
        #expect(throws: NDEFError.reservedURIPrefix(code: 0x24)) { try NDEFURIRecord(payload: bytes("246e66637079")[...]) }
        let relaxed = try NDEFURIRecord(payload: bytes("ff6e66637079")[...], allowingReservedPrefix: true)
        #expect(relaxed.uri == "nfcpy" && relaxed.prefix == "")
    }

    @Test(arguments: [
        ("", NDEFError.emptyURIPayload),
        ("0380", .uriNotUTF8),
        ("03c328", .uriNotUTF8),
        ("0300", .uriControlCharacter(offset: 0)),
        ("03616263 0a", .uriControlCharacter(offset: 3)),
        ("03c3a9 7f", .uriControlCharacter(offset: 2)),
        ("03 c285", .uriControlCharacter(offset: 0)),
    ])
    func refusesBadURIFields(hex: String, error: NDEFError) {
        #expect(throws: error) { try NDEFURIRecord(payload: bytes(hex)[...]) }
    }

    @Test func uriRecordTypeIsChecked() throws {
        var slice = bytes("d1010754 02656e54455854")[...]
        let record = try NDEFRecord.decode(from: &slice)
        #expect(throws: NDEFError.wrongRecordType(expected: "U")) { try NDEFURIRecord(record) }
    }

    @Test func nonASCIIURI() throws {
        let record = try NDEFURIRecord(payload: [0x04] + Array("bücher.example/ß".utf8)[...])
        #expect(record.uri == "https://bücher.example/ß")
    }

    @Test(arguments: [
        ("02656e", "", "en", NDEFTextRecord.Encoding.utf8),
        ("02656e48656c6c6f", "Hello", "en", .utf8),
        ("82656efffe480065006c006c006f00", "Hello", "en", .utf16),
        ("82656efeff00480065006c006c006f", "Hello", "en", .utf16),
        ("82656e00480065006c006c006f", "Hello", "en", .utf16),
        ("02656cce94", "\u{394}", "el", .utf8),
        ("82656cfffe9403", "\u{394}", "el", .utf16),
        ("82656efffe3dd800de", "\u{1F600}", "en", .utf16),
        ("05656e2d555348", "H", "en-US", .utf8),
    ])
    func textRecords(hex: String, text: String, language: String, encoding: NDEFTextRecord.Encoding) throws {
        let record = try NDEFTextRecord(payload: bytes(hex)[...])
        #expect(record.text == text && record.language == language && record.encoding == encoding)
    }

    @Test(arguments: [
        ("", NDEFError.emptyTextPayload),
        ("00", .zeroLanguageCodeLength),
        ("01", .languageCodeExceedsPayload(languageCodeLength: 1, payloadLength: 1)),
        ("3f656e", .languageCodeExceedsPayload(languageCodeLength: 63, payloadLength: 3)),
        ("82656e54", .textNotDecodable(encoding: .utf16)),
        ("82656ed800", .textNotDecodable(encoding: .utf16)),  // a lone high surrogate
        ("02656efffe5400", .textNotDecodable(encoding: .utf8)),
    ])
    func refusesBadText(hex: String, error: NDEFError) {
        #expect(throws: error) { try NDEFTextRecord(payload: bytes(hex)[...]) }
    }
}
