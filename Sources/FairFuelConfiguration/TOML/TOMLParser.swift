/// Parses the TOML subset that FairFuel's configuration files use, strictly.
///
/// The subset: `#` comments; `[table]`, `[table.sub]` and `[[array.of.tables]]`
/// headers; bare and quoted keys; basic strings with escapes and literal
/// strings (one line each); integers (decimal, `0x`, `0o`, `0b`, underscores
/// between digits); floats; booleans; arrays of scalars of one type, which may
/// span lines. Everything else that TOML allows (dotted keys, inline tables,
/// multi-line strings, dates and times, `inf` and `nan`, nested or mixed arrays)
/// is a `TOMLError.unsupported` or other typed error, never skipped.
public struct TOMLParser {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var root = TOMLTable()
    /// Path of the table that key/value lines go into.
    private var currentPath: [String] = []
    /// `[section]` and `[[section]]` headers, and keys, read so far (see the limits below).
    private var sectionCount = 0
    private var keyCount = 0

    /// The largest document read: FairFuel's profiles and bundles are a few KiB.
    public static let maximumDocumentBytes = 1 << 20
    /// The longest string value or quoted key, in UTF-8 bytes.
    public static let maximumStringBytes = 64 << 10
    /// The most section headers: a bundle of the store's 64 drivers has 65. Tables are looked up
    /// by name along their list, so a cap keeps a hostile document's cost small as well as refused.
    public static let maximumSections = 1_024
    /// The most `key = value` lines.
    public static let maximumKeys = 4_096

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The document's root table.
    public static func parse(_ text: String) throws(TOMLError) -> TOMLTable {
        try parse(Array(text.utf8))
    }

    /// The document's root table; `bytes` must be UTF-8 (a leading BOM is skipped).
    public static func parse(_ bytes: [UInt8]) throws(TOMLError) -> TOMLTable {
        guard bytes.count <= maximumDocumentBytes else { throw .documentTooLarge(maximumBytes: maximumDocumentBytes) }
        try checkUTF8(bytes)
        var parser = TOMLParser(bytes: bytes)
        try parser.parseDocument()
        return parser.root
    }

    private static func checkUTF8(_ bytes: [UInt8]) throws(TOMLError) {
        var lineNumber = 1
        var start = 0
        for position in 0...bytes.count where position == bytes.count || bytes[position] == TOMLBytes.lf {
            if String(validating: bytes[start..<position], as: UTF8.self) == nil {
                throw .invalidUTF8(line: lineNumber)
            }
            lineNumber += 1
            start = position + 1
        }
    }

    // MARK: - Document

    private mutating func parseDocument() throws(TOMLError) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        while true {
            skipSpaces()
            guard let byte = peek() else { return }
            switch byte {
            case TOMLBytes.hash, TOMLBytes.lf, TOMLBytes.cr:
                try finishLine()
            case TOMLBytes.openBracket:
                try parseHeader()
            default:
                if TOMLBytes.isControl(byte) { throw .controlCharacter(line: line) }
                try parseKeyValue()
            }
        }
    }

    private mutating func parseHeader() throws(TOMLError) {
        let headerLine = line
        sectionCount += 1
        guard sectionCount <= Self.maximumSections else { throw .tooManySections(line: headerLine, maximum: Self.maximumSections) }
        index += 1
        let isArray = peek() == TOMLBytes.openBracket
        if isArray { index += 1 }
        skipSpaces()
        guard let first = peek(), first != TOMLBytes.closeBracket else { throw .invalidHeader(line: headerLine) }
        var path: [String] = []
        while true {
            guard let key = try parseKey() else { throw .invalidHeader(line: headerLine) }
            path.append(key)
            skipSpaces()
            if peek() == TOMLBytes.dot {
                index += 1
                skipSpaces()
                continue
            }
            break
        }
        guard peek() == TOMLBytes.closeBracket else { throw .invalidHeader(line: headerLine) }
        index += 1
        if isArray {
            guard peek() == TOMLBytes.closeBracket else { throw .invalidHeader(line: headerLine) }
            index += 1
        }
        try finishLine()

        let name = path.joined(separator: ".")
        let parentPath = path.dropLast()
        let last = path[path.count - 1]
        try root.withTable(at: parentPath[...], walked: [], line: headerLine) { (parent: inout TOMLTable) throws(TOMLError) in
            if let position = parent.index(of: last) {
                let existing = parent.entries[position].value
                switch existing {
                case .table(var table) where !isArray && !table.isDefinedByHeader:
                    table.isDefinedByHeader = true
                    table.line = headerLine
                    parent.replaceValue(at: position, with: .table(table))
                case .table:
                    throw .duplicateTable(line: headerLine, name: name)
                case var .tableArray(tables) where isArray:
                    tables.append(TOMLTable(line: headerLine, definedByHeader: true))
                    parent.replaceValue(at: position, with: .tableArray(tables))
                case .tableArray:
                    throw .duplicateTable(line: headerLine, name: name)
                default:
                    throw .duplicateKey(line: headerLine, key: name)
                }
            } else {
                let table = TOMLTable(line: headerLine, definedByHeader: true)
                parent.insert(last, isArray ? .tableArray([table]) : .table(table), line: headerLine)
            }
        }
        currentPath = path
    }

    private mutating func parseKeyValue() throws(TOMLError) {
        let keyLine = line
        keyCount += 1
        guard keyCount <= Self.maximumKeys else { throw .tooManyKeys(line: keyLine, maximum: Self.maximumKeys) }
        guard let key = try parseKey() else { throw .expectedKey(line: keyLine) }
        skipSpaces()
        if peek() == TOMLBytes.dot {
            throw .unsupported(line: keyLine, feature: "dotted keys (a.b = 1); use a [section] header, and")
        }
        guard peek() == TOMLBytes.equals else { throw .expectedEquals(line: keyLine, key: key) }
        index += 1
        skipSpaces()
        guard let value = try parseValue(key: key, inArray: false) else {
            throw .expectedValue(line: keyLine, key: key)
        }
        try finishLine()
        let fullKey = (currentPath + [key]).joined(separator: ".")
        try root.withTable(at: currentPath[...], walked: [], line: keyLine) { (table: inout TOMLTable) throws(TOMLError) in
            guard table.insert(key, value, line: keyLine) else {
                throw .duplicateKey(line: keyLine, key: fullKey)
            }
        }
    }

    /// After a header or value: optional spaces, an optional comment, then LF, CRLF or the end.
    private mutating func finishLine() throws(TOMLError) {
        skipSpaces()
        guard let byte = peek() else { return }
        if byte == TOMLBytes.hash {
            try skipComment()
            guard peek() != nil else { return }
        }
        guard let end = peek() else { return }
        if end == TOMLBytes.lf || end == TOMLBytes.cr {
            try consumeNewline()
            return
        }
        if TOMLBytes.isControl(end) { throw .controlCharacter(line: line) }
        var stop = index
        while stop < bytes.count, stop - index < 24, bytes[stop] != TOMLBytes.lf, bytes[stop] != TOMLBytes.cr { stop += 1 }
        throw .trailingCharacters(line: line, text: String(decoding: bytes[index..<stop], as: UTF8.self))
    }

    private mutating func skipComment() throws(TOMLError) {
        index += 1
        while let byte = peek(), byte != TOMLBytes.lf {
            if byte == TOMLBytes.cr {
                if index + 1 < bytes.count, bytes[index + 1] == TOMLBytes.lf { return }
                throw .controlCharacter(line: line)
            }
            if TOMLBytes.isControl(byte) { throw .controlCharacter(line: line) }
            index += 1
        }
    }

    private mutating func consumeNewline() throws(TOMLError) {
        if peek() == TOMLBytes.cr {
            guard index + 1 < bytes.count, bytes[index + 1] == TOMLBytes.lf else { throw .controlCharacter(line: line) }
            index += 1
        }
        index += 1
        line += 1
    }

    // MARK: - Keys

    /// A bare or quoted key; nil when none starts here.
    private mutating func parseKey() throws(TOMLError) -> String? {
        guard let byte = peek() else { return nil }
        if byte == TOMLBytes.quote {
            if isTripleQuote(TOMLBytes.quote) { throw .unsupported(line: line, feature: "multi-line strings") }
            return try parseBasicString()
        }
        if byte == TOMLBytes.apostrophe {
            if isTripleQuote(TOMLBytes.apostrophe) { throw .unsupported(line: line, feature: "multi-line strings") }
            return try parseLiteralString()
        }
        let start = index
        while let next = peek(), TOMLBytes.isBareKey(next) { index += 1 }
        guard index > start else { return nil }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    // MARK: - Values

    /// A value, or nil when the line (or array) ends before one starts.
    private mutating func parseValue(key: String, inArray: Bool) throws(TOMLError) -> TOMLValue? {
        guard let byte = peek() else { return nil }
        switch byte {
        case TOMLBytes.lf, TOMLBytes.cr, TOMLBytes.hash:
            return nil
        case TOMLBytes.quote:
            if isTripleQuote(TOMLBytes.quote) { throw .unsupported(line: line, feature: "multi-line strings") }
            return .string(try parseBasicString())
        case TOMLBytes.apostrophe:
            if isTripleQuote(TOMLBytes.apostrophe) { throw .unsupported(line: line, feature: "multi-line strings") }
            return .string(try parseLiteralString())
        case TOMLBytes.openBracket:
            if inArray { throw .unsupported(line: line, feature: "nested arrays") }
            return try parseArray(key: key)
        case TOMLBytes.openBrace:
            throw .unsupported(line: line, feature: "inline tables ({ ... })")
        default:
            return try parseBareValue()
        }
    }

    private mutating func parseArray(key: String) throws(TOMLError) -> TOMLValue {
        let openLine = line
        index += 1
        var elements: [TOMLValue] = []
        while true {
            try skipArraySpace(openLine: openLine)
            if peek() == TOMLBytes.closeBracket {
                index += 1
                break
            }
            let elementLine = line
            guard let element = try parseValue(key: key, inArray: true) else {
                throw .expectedArraySeparator(line: line)
            }
            if let first = elements.first, first.typeName != element.typeName {
                throw .mixedArray(line: elementLine)
            }
            elements.append(element)
            try skipArraySpace(openLine: openLine)
            guard let next = peek() else { throw .unterminatedArray(line: openLine) }
            if next == TOMLBytes.comma {
                index += 1
            } else if next != TOMLBytes.closeBracket {
                throw .expectedArraySeparator(line: line)
            }
        }
        return .array(elements)
    }

    /// Spaces, newlines and comments inside an array.
    private mutating func skipArraySpace(openLine: Int) throws(TOMLError) {
        while true {
            skipSpaces()
            guard let byte = peek() else { throw .unterminatedArray(line: openLine) }
            if byte == TOMLBytes.hash {
                try skipComment()
            } else if byte == TOMLBytes.lf || byte == TOMLBytes.cr {
                try consumeNewline()
            } else {
                return
            }
        }
    }

    private mutating func parseBasicString() throws(TOMLError) -> String {
        index += 1
        var out: [UInt8] = []
        while true {
            guard let byte = peek(), byte != TOMLBytes.lf else { throw .unterminatedString(line: line) }
            index += 1
            guard out.count <= Self.maximumStringBytes else { throw .stringTooLong(line: line, maximumBytes: Self.maximumStringBytes) }
            switch byte {
            case TOMLBytes.quote:
                guard out.count <= Self.maximumStringBytes else { throw .stringTooLong(line: line, maximumBytes: Self.maximumStringBytes) }
                return String(decoding: out, as: UTF8.self)
            case TOMLBytes.backslash:
                try parseEscape(into: &out)
            case TOMLBytes.cr:
                if peek() == TOMLBytes.lf { throw .unterminatedString(line: line) }
                throw .controlCharacter(line: line)
            default:
                if TOMLBytes.isControl(byte) { throw .controlCharacter(line: line) }
                out.append(byte)
            }
        }
    }

    private mutating func parseEscape(into out: inout [UInt8]) throws(TOMLError) {
        guard let code = peek(), code != TOMLBytes.lf, code != TOMLBytes.cr else { throw .unterminatedString(line: line) }
        index += 1
        switch code {
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "r"): out.append(0x0D)
        case TOMLBytes.quote: out.append(TOMLBytes.quote)
        case TOMLBytes.backslash: out.append(TOMLBytes.backslash)
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let digits = code == UInt8(ascii: "u") ? 4 : 8
            let start = index
            var value: UInt32 = 0
            for _ in 0..<digits {
                guard let digit = peek().flatMap(TOMLBytes.hexValue) else {
                    throw .invalidEscape(line: line, sequence: escapeText(code, from: start))
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            guard let scalar = Unicode.Scalar(value) else {
                throw .invalidEscape(line: line, sequence: escapeText(code, from: start))
            }
            UTF8.encode(scalar) { out.append($0) }
        default:
            index -= 1
            throw .invalidEscape(line: line, sequence: escapeText(nil, from: index))
        }
    }

    private func escapeText(_ code: UInt8?, from start: Int) -> String {
        var stop = start
        let limit = code == nil ? 1 : (code == UInt8(ascii: "u") ? 4 : 8)
        while stop < bytes.count, stop - start < limit, bytes[stop] != TOMLBytes.quote, bytes[stop] != TOMLBytes.lf,
            bytes[stop] < 0x80
        {
            stop += 1
        }
        if code == nil, stop == start, start < bytes.count, bytes[start] >= 0x80 {
            // A non-ASCII character after the backslash: show it whole.
            var end = start + 1
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            stop = end
        }
        let prefix = code.map { "\\" + String(UnicodeScalar($0)) } ?? "\\"
        return prefix + String(decoding: bytes[start..<stop], as: UTF8.self)
    }

    private mutating func parseLiteralString() throws(TOMLError) -> String {
        index += 1
        let start = index
        while true {
            guard let byte = peek(), byte != TOMLBytes.lf else { throw .unterminatedString(line: line) }
            guard index - start <= Self.maximumStringBytes else { throw .stringTooLong(line: line, maximumBytes: Self.maximumStringBytes) }
            if byte == TOMLBytes.apostrophe {
                let text = String(decoding: bytes[start..<index], as: UTF8.self)
                index += 1
                return text
            }
            if byte == TOMLBytes.cr {
                if index + 1 < bytes.count, bytes[index + 1] == TOMLBytes.lf { throw .unterminatedString(line: line) }
                throw .controlCharacter(line: line)
            }
            if TOMLBytes.isControl(byte) { throw .controlCharacter(line: line) }
            index += 1
        }
    }

    /// Booleans and numbers: a run of bytes up to a space, `,`, `]`, `#` or the line's end.
    private mutating func parseBareValue() throws(TOMLError) -> TOMLValue {
        let start = index
        while let byte = peek(), !TOMLBytes.endsBareValue(byte) { index += 1 }
        let token = Array(bytes[start..<index])
        let text = String(decoding: token, as: UTF8.self)
        if text == "true" { return .boolean(true) }
        if text == "false" { return .boolean(false) }
        guard !token.isEmpty else {
            throw .invalidValue(line: line, text: String(decoding: bytes[index..<min(index + 1, bytes.count)], as: UTF8.self))
        }
        let unsigned = token.first == TOMLBytes.plus || token.first == TOMLBytes.minus ? Array(token.dropFirst()) : token
        if unsigned == Array("inf".utf8) || unsigned == Array("nan".utf8) {
            throw .unsupported(line: line, feature: "inf and nan")
        }
        if Self.looksLikeDateOrTime(token) {
            throw .unsupported(line: line, feature: "dates and times (write them as quoted strings)")
        }
        guard let first = token.first, TOMLBytes.isDigit(first) || first == TOMLBytes.plus || first == TOMLBytes.minus else {
            if token.first == TOMLBytes.dot { throw .invalidNumber(line: line, text: text) }
            throw .invalidValue(line: line, text: text)
        }
        return try NumberScanner(token: token, text: text, line: line).scan()
    }

    /// `1979-05-27...` or `07:32:00...`: TOML dates and times, outside the subset.
    private static func looksLikeDateOrTime(_ token: [UInt8]) -> Bool {
        func digits(_ range: Range<Int>) -> Bool {
            range.upperBound <= token.count && token[range].allSatisfy(TOMLBytes.isDigit)
        }
        if digits(0..<4), token.count > 4, token[4] == TOMLBytes.minus, digits(5..<7) { return true }
        if digits(0..<2), token.count > 2, token[2] == UInt8(ascii: ":") { return true }
        return false
    }

    // MARK: - Bytes

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private mutating func skipSpaces() {
        while let byte = peek(), byte == TOMLBytes.space || byte == TOMLBytes.tab { index += 1 }
    }

    private func isTripleQuote(_ quote: UInt8) -> Bool {
        index + 2 < bytes.count && bytes[index + 1] == quote && bytes[index + 2] == quote
    }
}
