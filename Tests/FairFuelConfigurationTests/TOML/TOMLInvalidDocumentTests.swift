import FairFuelConfiguration
import Testing

/// Documents that are each valid but for one defect, and the error it must give.
@Suite("TOML subset: invalid documents")
struct TOMLInvalidDocumentTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var error: TOMLError
        var testDescription: String { name }
    }

    /// A valid prefix, so that each defect sits on a known line past the first.
    static let prefix = "# profile\n[link]\nbaud = 115200\n"

    static let cases: [Case] = [
        // Keys and structure
        Case(name: "duplicate key", text: prefix + "baud = 9600", error: .duplicateKey(line: 4, key: "link.baud")),
        Case(
            name: "duplicate key, quoted the second time", text: prefix + "\"baud\" = 9600",
            error: .duplicateKey(line: 4, key: "link.baud")),
        Case(name: "duplicate table", text: prefix + "[link]", error: .duplicateTable(line: 4, name: "link")),
        Case(
            name: "table after array of tables", text: prefix + "[[ports]]\n[ports]",
            error: .duplicateTable(line: 5, name: "ports")),
        Case(
            name: "array of tables after table", text: prefix + "[[link]]",
            error: .duplicateTable(line: 4, name: "link")),
        Case(
            name: "header over a key", text: prefix + "[link.baud]", error: .duplicateKey(line: 4, key: "link.baud")),
        Case(
            name: "header through a key", text: prefix + "[link.baud.rate]",
            error: .keyIsNotATable(line: 4, key: "link.baud")),
        Case(
            name: "table redefined after its sub-table", text: prefix + "[link.usb]\n[link]\n",
            error: .duplicateTable(line: 5, name: "link")),
        Case(
            name: "key that a sub-table already uses", text: "[a.b]\n[a]\nb = 1",
            error: .duplicateKey(line: 3, key: "a.b")),
        Case(name: "key without equals", text: prefix + "port \"/dev/x\"", error: .expectedEquals(line: 4, key: "port")),
        Case(name: "key without value", text: prefix + "port =", error: .expectedValue(line: 4, key: "port")),
        Case(name: "key with only a comment", text: prefix + "port = # none", error: .expectedValue(line: 4, key: "port")),
        Case(name: "no key", text: prefix + "= 5", error: .expectedKey(line: 4)),
        Case(name: "stray character", text: prefix + "!x = 5", error: .expectedKey(line: 4)),
        Case(
            name: "dotted key", text: prefix + "usb.vendor = 1",
            error: .unsupported(line: 4, feature: "dotted keys (a.b = 1); use a [section] header, and")),
        Case(name: "empty header", text: prefix + "[]", error: .invalidHeader(line: 4)),
        Case(name: "unclosed header", text: prefix + "[store", error: .invalidHeader(line: 4)),
        Case(name: "header with a space in a bare name", text: prefix + "[my store]", error: .invalidHeader(line: 4)),
        Case(name: "header ending with a dot", text: prefix + "[store.]", error: .invalidHeader(line: 4)),
        Case(name: "array header half closed", text: prefix + "[[ports]", error: .invalidHeader(line: 4)),
        Case(
            name: "text after a header", text: prefix + "[store] path = 1",
            error: .trailingCharacters(line: 4, text: "path = 1")),
        Case(name: "two values", text: prefix + "port = 1 2", error: .trailingCharacters(line: 4, text: "2")),
        Case(
            name: "text after a string", text: prefix + "port = \"/dev/x\"y",
            error: .trailingCharacters(line: 4, text: "y")),

        // Strings
        Case(name: "unterminated basic string", text: prefix + "port = \"/dev/x", error: .unterminatedString(line: 4)),
        Case(
            name: "basic string cut by a newline", text: prefix + "port = \"/dev\n/x\"",
            error: .unterminatedString(line: 4)),
        Case(name: "unterminated literal string", text: prefix + "port = '/dev/x", error: .unterminatedString(line: 4)),
        Case(name: "unterminated quoted key", text: prefix + "\"port = 1", error: .unterminatedString(line: 4)),
        Case(name: "unterminated escape at the end", text: prefix + "port = \"x\\", error: .unterminatedString(line: 4)),
        Case(name: "unknown escape", text: prefix + #"port = "\x41""#, error: .invalidEscape(line: 4, sequence: "\\x")),
        Case(name: "short \\u escape", text: prefix + #"port = "\u12""#, error: .invalidEscape(line: 4, sequence: "\\u12")),
        Case(
            name: "surrogate \\u escape", text: prefix + #"port = "\uD800""#,
            error: .invalidEscape(line: 4, sequence: "\\uD800")),
        Case(
            name: "\\U beyond Unicode", text: prefix + #"port = "\U00110000""#,
            error: .invalidEscape(line: 4, sequence: "\\U00110000")),
        Case(
            name: "multi-line basic string", text: prefix + "port = \"\"\"x\"\"\"",
            error: .unsupported(line: 4, feature: "multi-line strings")),
        Case(
            name: "multi-line literal string", text: prefix + "port = '''x'''",
            error: .unsupported(line: 4, feature: "multi-line strings")),
        Case(name: "raw tab is fine but a raw control is not", text: prefix + "port = \"a\u{01}b\"", error: .controlCharacter(line: 4)),
        Case(name: "control character in a comment", text: prefix + "# bell \u{07}", error: .controlCharacter(line: 4)),
        Case(name: "bare CR", text: prefix + "port = 1\rbaud = 2", error: .controlCharacter(line: 4)),
        Case(name: "control character at a line's start", text: prefix + "\u{0C}port = 1", error: .controlCharacter(line: 4)),

        // Numbers
        Case(name: "leading zero", text: prefix + "mode = 0660", error: .invalidNumber(line: 4, text: "0660")),
        Case(name: "double underscore", text: prefix + "n = 1__000", error: .invalidNumber(line: 4, text: "1__000")),
        Case(name: "trailing underscore", text: prefix + "n = 1000_", error: .invalidNumber(line: 4, text: "1000_")),
        Case(name: "leading underscore in hex", text: prefix + "n = 0x_12", error: .invalidNumber(line: 4, text: "0x_12")),
        Case(name: "sign on hex", text: prefix + "n = -0x12", error: .invalidNumber(line: 4, text: "-0x12")),
        Case(name: "upper-case hex prefix", text: prefix + "n = 0X12", error: .invalidNumber(line: 4, text: "0X12")),
        Case(name: "binary digit 2", text: prefix + "n = 0b102", error: .invalidNumber(line: 4, text: "0b102")),
        Case(name: "octal digit 8", text: prefix + "n = 0o18", error: .invalidNumber(line: 4, text: "0o18")),
        Case(name: "hex without digits", text: prefix + "n = 0x", error: .invalidNumber(line: 4, text: "0x")),
        Case(
            name: "integer too large", text: prefix + "n = 9223372036854775808",
            error: .integerOverflow(line: 4, text: "9223372036854775808")),
        Case(
            name: "integer too small", text: prefix + "n = -9223372036854775809",
            error: .integerOverflow(line: 4, text: "-9223372036854775809")),
        Case(
            name: "hex too large", text: prefix + "n = 0x1_0000_0000_0000_0000",
            error: .integerOverflow(line: 4, text: "0x1_0000_0000_0000_0000")),
        Case(name: "float without fraction digits", text: prefix + "f = 1.", error: .invalidNumber(line: 4, text: "1.")),
        Case(name: "float without integer part", text: prefix + "f = .5", error: .invalidNumber(line: 4, text: ".5")),
        Case(name: "float with two dots", text: prefix + "f = 1.2.3", error: .invalidNumber(line: 4, text: "1.2.3")),
        Case(name: "exponent without digits", text: prefix + "f = 1e", error: .invalidNumber(line: 4, text: "1e")),
        Case(name: "float with leading zero", text: prefix + "f = 01.5", error: .invalidNumber(line: 4, text: "01.5")),
        Case(name: "float out of range", text: prefix + "f = 1e400", error: .invalidNumber(line: 4, text: "1e400")),
        Case(name: "inf", text: prefix + "f = inf", error: .unsupported(line: 4, feature: "inf and nan")),
        Case(name: "negative nan", text: prefix + "f = -nan", error: .unsupported(line: 4, feature: "inf and nan")),

        // Other values
        Case(name: "unquoted string", text: prefix + "port = /dev/ttyACM0", error: .invalidValue(line: 4, text: "/dev/ttyACM0")),
        Case(name: "yes for a boolean", text: prefix + "enabled = yes", error: .invalidValue(line: 4, text: "yes")),
        Case(name: "capitalised boolean", text: prefix + "enabled = True", error: .invalidValue(line: 4, text: "True")),
        Case(
            name: "date", text: prefix + "d = 2024-05-27",
            error: .unsupported(line: 4, feature: "dates and times (write them as quoted strings)")),
        Case(
            name: "time", text: prefix + "t = 07:32:00",
            error: .unsupported(line: 4, feature: "dates and times (write them as quoted strings)")),
        Case(
            name: "inline table", text: prefix + "usb = { vendor = 1 }",
            error: .unsupported(line: 4, feature: "inline tables ({ ... })")),

        // Arrays
        Case(name: "unterminated array", text: prefix + "caps = [\n\"nfc\",\n\"ble\"\n", error: .unterminatedArray(line: 4)),
        Case(name: "array missing a comma", text: prefix + "caps = [\n1\n2]", error: .expectedArraySeparator(line: 6)),
        Case(name: "array with two commas", text: prefix + "caps = [1,,2]", error: .invalidValue(line: 4, text: ",")),
        Case(name: "mixed array", text: prefix + "caps = [1,\n\"two\"]", error: .mixedArray(line: 5)),
        Case(name: "integer and float", text: prefix + "caps = [1, 2.0]", error: .mixedArray(line: 4)),
        Case(name: "nested array", text: prefix + "caps = [[1]]", error: .unsupported(line: 4, feature: "nested arrays")),
        Case(
            name: "inline table in an array", text: prefix + "caps = [{ a = 1 }]",
            error: .unsupported(line: 4, feature: "inline tables ({ ... })")),
    ]

    @Test("each defect gives its error and line", arguments: cases)
    func defect(_ testCase: Case) {
        #expect(throws: testCase.error) { try TOMLParser.parse(testCase.text) }
    }

    @Test("invalid UTF-8 names its line")
    func invalidUTF8() {
        let bytes = Array("a = 1\nb = \"".utf8) + [0xC3, 0x28] + Array("\"\n".utf8)
        #expect(throws: TOMLError.invalidUTF8(line: 2)) { try TOMLParser.parse(bytes) }
        let overlong = Array("# ".utf8) + [0xC0, 0xAF]
        #expect(throws: TOMLError.invalidUTF8(line: 1)) { try TOMLParser.parse(overlong) }
    }

    @Test("the prefix shared by the defect cases is valid")
    func prefixIsValid() throws {
        _ = try TOMLParser.parse(Self.prefix)
    }

    @Test("messages name the line and say what to do")
    func messages() {
        #expect(TOMLError.duplicateKey(line: 7, key: "link.baud").description == "line 7: 'link.baud' is set twice")
        #expect(
            TOMLError.invalidValue(line: 3, text: "yes").description
                == "line 3: 'yes' is not a value: strings need quotes (\"...\"); booleans are true or false")
        #expect(TOMLError.unterminatedString(line: 2).description.hasPrefix("line 2: string without its closing quote"))
        for testCase in Self.cases {
            #expect(testCase.error.description.hasPrefix("line \(testCase.error.line): "))
        }
    }
}
