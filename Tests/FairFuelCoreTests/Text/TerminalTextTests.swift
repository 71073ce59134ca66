import FairFuelCore
import Testing

/// Names shown on a terminal: controls and bidi overrides become visible escapes, the rest stays.
@Suite struct TerminalTextTests {
    @Test func printableUnicodeIsLeftAsItIs() {
        for name in ["Alice", "Zoë", "Jürgen-Öz", "李小龙", "محمد", "🚗 Dad", "a\\u{1B}b (typed as text)", ""] {
            #expect(TerminalText.escaped(name) == name)
        }
    }

    @Test func everyControlAndBidiOverrideIsShownAsAnEscape() {
        #expect(TerminalText.escaped("Al\u{1B}]0;pwned\u{07}ice") == "Al\\u{1B}]0;pwned\\u{7}ice")
        #expect(TerminalText.escaped("a\u{0}b\nc\td\r\u{7F}\u{85}\u{9B}") == "a\\u{0}b\\u{A}c\\u{9}d\\u{D}\\u{7F}\\u{85}\\u{9B}")
        #expect(TerminalText.escaped("\u{202E}lived\u{202C} \u{2066}x\u{2069}\u{200F}\u{061C}\u{2028}")
            == "\\u{202E}lived\\u{202C} \\u{2066}x\\u{2069}\\u{200F}\\u{61C}\\u{2028}")
        for value in UInt32(0)...0x9F where value < 0x20 || value >= 0x7F {
            let scalar = Unicode.Scalar(value)!
            #expect(TerminalText.escaped(String(Character(scalar))).unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F })
        }
    }

    @Test func aPaddedCellCountsTheEscapeItShows() {
        #expect(TerminalText.padded("Bo\u{1B}", 12) == "Bo\\u{1B}    ")
        #expect(TerminalText.padded("a long name here", 6) == "a long name here ")
    }
}
