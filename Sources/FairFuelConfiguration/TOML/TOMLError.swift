/// Why a document is not in the TOML subset that `TOMLParser` reads; every case names its 1-based line.
public enum TOMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line holds a byte sequence that is not UTF-8.
    case invalidUTF8(line: Int)
    /// A control character (other than tab) outside an escape, or a CR not followed by LF.
    case controlCharacter(line: Int)
    /// Something other than a key, a `[table]` header or a comment starts the line.
    case expectedKey(line: Int)
    /// A key not followed by `=`.
    case expectedEquals(line: Int, key: String)
    /// `key =` with nothing after it.
    case expectedValue(line: Int, key: String)
    /// A bare word that is no value of the subset, e.g. `yes` or an unquoted string.
    case invalidValue(line: Int, text: String)
    case unterminatedString(line: Int)
    /// A backslash escape that TOML does not define, or `\u` naming no Unicode scalar.
    case invalidEscape(line: Int, sequence: String)
    /// A malformed number: leading zeros, misplaced underscores, a sign on a hex number...
    case invalidNumber(line: Int, text: String)
    /// An integer outside the signed 64-bit range.
    case integerOverflow(line: Int, text: String)
    /// No closing `]`; `line` is where the array opened.
    case unterminatedArray(line: Int)
    /// Array elements not separated by `,`.
    case expectedArraySeparator(line: Int)
    /// An array whose elements are not all of one type.
    case mixedArray(line: Int)
    /// A `[header]` or `[[header]]` that is empty or not closed.
    case invalidHeader(line: Int)
    /// A key set twice in one table (`key` is the dotted path from the root).
    case duplicateKey(line: Int, key: String)
    /// A `[table]` defined twice, or a name used both as `[table]` and as `[[array]]`.
    case duplicateTable(line: Int, name: String)
    /// A header goes through `key`, which holds a value rather than a table.
    case keyIsNotATable(line: Int, key: String)
    /// Text after a complete value or header.
    case trailingCharacters(line: Int, text: String)
    /// Valid TOML that this subset leaves out on purpose (`feature` says which).
    case unsupported(line: Int, feature: String)
    /// The document is longer than `TOMLParser.maximumDocumentBytes`; nothing of it was read.
    case documentTooLarge(maximumBytes: Int)
    /// A string value or quoted key longer than `TOMLParser.maximumStringBytes`.
    case stringTooLong(line: Int, maximumBytes: Int)
    /// More section headers than `TOMLParser.maximumSections`; `line` is the first one past it.
    case tooManySections(line: Int, maximum: Int)
    /// More keys than `TOMLParser.maximumKeys`; `line` is the first one past it.
    case tooManyKeys(line: Int, maximum: Int)

    public var line: Int {
        switch self {
        case let .invalidUTF8(line), let .controlCharacter(line), let .expectedKey(line),
            let .expectedEquals(line, _), let .expectedValue(line, _), let .invalidValue(line, _),
            let .unterminatedString(line), let .invalidEscape(line, _), let .invalidNumber(line, _),
            let .integerOverflow(line, _), let .unterminatedArray(line),
            let .expectedArraySeparator(line), let .mixedArray(line), let .invalidHeader(line),
            let .duplicateKey(line, _), let .duplicateTable(line, _), let .keyIsNotATable(line, _),
            let .trailingCharacters(line, _), let .unsupported(line, _), let .stringTooLong(line, _),
            let .tooManySections(line, _), let .tooManyKeys(line, _):
            line
        case .documentTooLarge:
            0
        }
    }

    /// `line N: message`; the message alone for what no line stands for (the document's size).
    public var description: String {
        line > 0 ? "line \(line): " + message : message
    }

    /// The description without its `line N:` prefix.
    public var message: String {
        switch self {
        case .invalidUTF8:
            "the text is not valid UTF-8; save the file as UTF-8"
        case .controlCharacter:
            "control character in the text (only tab is allowed; a CR must be followed by LF)"
        case .expectedKey:
            "expected a key (name = value), a [section] header or a # comment"
        case let .expectedEquals(_, key):
            "expected '=' after the key '\(key)'"
        case let .expectedValue(_, key):
            "the key '\(key)' has no value after '='"
        case let .invalidValue(_, text):
            "'\(text)' is not a value: strings need quotes (\"...\"); booleans are true or false"
        case .unterminatedString:
            "string without its closing quote on the same line"
        case let .invalidEscape(_, sequence):
            "invalid escape '\(sequence)' in a string (allowed: \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX)"
        case let .invalidNumber(_, text):
            "'\(text)' is not a valid number (no leading zeros; an underscore must sit between two digits)"
        case let .integerOverflow(_, text):
            "\(text) does not fit in a 64-bit signed integer"
        case .unterminatedArray:
            "array without its closing ']'"
        case .expectedArraySeparator:
            "expected ',' or ']' between array elements"
        case .mixedArray:
            "array mixes values of different types"
        case .invalidHeader:
            "invalid section header: write [name], [name.sub] or [[name]]"
        case let .duplicateKey(_, key):
            "'\(key)' is set twice"
        case let .duplicateTable(_, name):
            "section [\(name)] is defined twice"
        case let .keyIsNotATable(_, key):
            "'\(key)' holds a value, so it cannot also be a section"
        case let .trailingCharacters(_, text):
            "unexpected '\(text)' after the value (start a comment with #)"
        case let .unsupported(_, feature):
            "\(feature) are not supported in FairFuel configuration files"
        case let .documentTooLarge(maximum):
            "the file is larger than \(maximum / 1_024) KiB: not a FairFuel configuration file"
        case let .stringTooLong(_, maximum):
            "a string longer than \(maximum / 1_024) KiB: FairFuel's settings are short"
        case let .tooManySections(_, maximum):
            "more than \(maximum) [section] headers: not a FairFuel configuration file"
        case let .tooManyKeys(_, maximum):
            "more than \(maximum) keys: not a FairFuel configuration file"
        }
    }
}
