import FairFuelConfiguration
import Foundation
import Testing

/// Documents too big to be a FairFuel configuration: refused with a message of their own, fast,
/// instead of a misleading syntax error or a long wait.
@Suite struct TOMLLimitTests {
    @Test func aDocumentPastTheSizeLimitIsRefusedAsTooLarge() {
        let text = "[vehicle]\nname = \"" + String(repeating: "x", count: 10 << 20) + "\"\n"
        #expect(throws: TOMLError.documentTooLarge(maximumBytes: TOMLParser.maximumDocumentBytes)) { try TOMLParser.parse(text) }
        let error = TOMLError.documentTooLarge(maximumBytes: TOMLParser.maximumDocumentBytes)
        #expect(error.description == "the file is larger than 1024 KiB: not a FairFuel configuration file")
    }

    @Test func aStringPastItsLimitNamesItsLine() throws {
        let long = String(repeating: "x", count: TOMLParser.maximumStringBytes + 1)
        #expect(throws: TOMLError.stringTooLong(line: 2, maximumBytes: TOMLParser.maximumStringBytes)) {
            try TOMLParser.parse("[vehicle]\nname = \"\(long)\"\n")
        }
        #expect(throws: TOMLError.stringTooLong(line: 3, maximumBytes: TOMLParser.maximumStringBytes)) {
            try TOMLParser.parse("[vehicle]\n\nname = '\(long)'\n")
        }
        #expect(throws: TOMLError.stringTooLong(line: 1, maximumBytes: TOMLParser.maximumStringBytes)) {
            try TOMLParser.parse("\"\(long)\" = 1\n")
        }
        let atTheLimit = String(repeating: "y", count: TOMLParser.maximumStringBytes)
        #expect(try TOMLParser.parse("name = \"\(atTheLimit)\"\nother = '\(atTheLimit)'\n")["name"] == .string(atTheLimit))
        #expect(TOMLError.stringTooLong(line: 2, maximumBytes: TOMLParser.maximumStringBytes).description
            == "line 2: a string longer than 64 KiB: FairFuel's settings are short")
    }

    /// 200,000 named sections (2.2 MB) are past the size limit; 170,000 `[[a]]` (1,020,000 bytes) are
    /// within it and past the section limit. Each is refused in well under a second.
    @Test func twoHundredThousandSectionsAreRefusedFast() {
        var named = ""
        for index in 0..<200_000 { named += "[s\(index)]\n" }
        var started = Date()
        #expect(throws: TOMLError.documentTooLarge(maximumBytes: TOMLParser.maximumDocumentBytes)) { try TOMLParser.parse(named) }
        let namedSeconds = Date().timeIntervalSince(started)
        let repeated = String(repeating: "[[a]]\n", count: 170_000)
        #expect(repeated.utf8.count <= TOMLParser.maximumDocumentBytes)
        started = Date()
        #expect(throws: TOMLError.tooManySections(line: TOMLParser.maximumSections + 1, maximum: TOMLParser.maximumSections)) {
            try TOMLParser.parse(repeated)
        }
        let repeatedSeconds = Date().timeIntervalSince(started)
        print("200,000 named sections refused in \(namedSeconds) s; 170,000 [[a]] in \(repeatedSeconds) s")
        #expect(namedSeconds < 1 && repeatedSeconds < 1, "\(namedSeconds) s, \(repeatedSeconds) s")
        #expect(TOMLError.tooManySections(line: 1_025, maximum: 1_024).description
            == "line 1025: more than 1024 [section] headers: not a FairFuel configuration file")
    }

    @Test func sectionsAndKeysUpToTheLimitsAreRead() throws {
        var text = ""
        for index in 0..<TOMLParser.maximumSections { text += "[[driver]]\nname = \"d\(index)\"\n" }
        let root = try TOMLParser.parse(text)
        #expect(root["driver"]?.tableArrayValue?.count == TOMLParser.maximumSections)
        var keys = "[many]\n"
        for index in 0..<TOMLParser.maximumKeys { keys += "k\(index) = \(index)\n" }
        #expect(try TOMLParser.parse(keys)["many"]?.tableValue?.keys.count == TOMLParser.maximumKeys)
        let started = Date()
        #expect(throws: TOMLError.tooManyKeys(line: TOMLParser.maximumKeys + 2, maximum: TOMLParser.maximumKeys)) {
            try TOMLParser.parse(keys + "one_more = 1\n" + String(repeating: "x = 1\n", count: 100_000))
        }
        #expect(Date().timeIntervalSince(started) < 5)
    }
}
