import FairFuelCore
import Testing

@Suite struct JSONLineReadingTests {
    static func read(_ text: String) -> (value: String?, rest: String) {
        var scalars = Substring(text).unicodeScalars
        let value = JSONLine.readQuoted(&scalars)
        return (value, String(Substring(scalars)))
    }

    static func quoted(_ value: String) -> String {
        var text = ""
        JSONLine.appendQuoted(value, to: &text)
        return text
    }

    @Test func newlineTabQuoteBackslashAndControlCharactersRoundTrip() {
        let value = "line 1\nline 2\ttab \"quoted\" back\\slash \r\u{08}\u{0C}\u{00}\u{01}\u{1F}\u{7F} é € 🚗"
        let text = Self.quoted(value)
        #expect(text == #""line 1\nline 2\ttab \"quoted\" back\\slash \r\b\f\u0000\u0001\u001f"# + "\u{7F} é € 🚗\"")
        let read = Self.read(text + ",next")
        #expect(read.value == value)
        #expect(read.rest == ",next")
    }

    @Test func everyControlCharacterRoundTrips() {
        for code in UInt32(0)..<0x20 {
            let value = "a" + String(Unicode.Scalar(code)!) + "b"
            #expect(Self.read(Self.quoted(value)).value == value, "U+\(String(code, radix: 16))")
        }
    }

    @Test func escapesJSONAllowsThatJSONLineDoesNotWrite() {
        #expect(Self.read(#""a\/b""#).value == "a/b")
        #expect(Self.read(#""\u00e9\u20AC""#).value == "é€")
        #expect(Self.read(#""\ud83d\ude97""#).value == "🚗")
        #expect(Self.read(#""\ud83d x""#).value == "\u{FFFD} x", "a lone high surrogate")
        #expect(Self.read(#""\ude97""#).value == "\u{FFFD}", "a lone low surrogate")
    }

    @Test func notAStringLeavesTheInputAsItWas() {
        for text in ["", "x\"a\"", #""cut short"#, #""bad \x escape""#, #""\u12""#, #""\u12g4""#, #""ends in \"#] {
            let read = Self.read(text)
            #expect(read.value == nil, "\(text)")
            #expect(read.rest == text)
        }
    }
}
