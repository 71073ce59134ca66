import FairFuelCore
import Testing

@Suite struct SubstringSearchTests {
    @Test func findsTheFirstOccurrence() throws {
        let line = "error:0A000086:SSL routines::certificate verify failed::x"
        let range = try #require(line.firstRange(ofText: "::"))
        #expect(line[range.upperBound...] == "certificate verify failed::x")
        #expect(line[..<range.lowerBound] == "error:0A000086:SSL routines")
    }

    @Test func worksOnSubstringsAndAtTheEdges() throws {
        let text = "xxabcabc"
        let tail = text.dropFirst(2)
        let atStart = try #require(tail.firstRange(ofText: "abc"))
        #expect(atStart.lowerBound == tail.startIndex)
        let atEnd = try #require(text.firstRange(ofText: "cabc"))
        #expect(atEnd.upperBound == text.endIndex)
        #expect(text.firstRange(ofText: "abd") == nil)
        #expect(text.firstRange(ofText: "abcabcd") == nil, "a needle that runs past the end")
        #expect("".firstRange(ofText: "a") == nil)
        #expect(text.firstRange(ofText: "") == text.startIndex..<text.startIndex)
    }

    @Test func comparesBytesNotCharacters() {
        #expect("key file: bad".containsText("key file"))
        #expect(!"KEY FILE".containsText("key file"), "case matters")
        #expect("naïve TLS".containsText("ï"))
        // "é" as one scalar and as e + combining accent: equal as Characters, different bytes.
        #expect(!"caf\u{E9}".containsText("cafe\u{301}"))
        #expect("ab\u{E9}cd".firstRange(ofText: "cd").map { "ab\u{E9}cd"[$0] } == "cd")
    }
}
