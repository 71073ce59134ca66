import FairFuelCore

/// The words of one scenario line, read left to right with typed helpers.
///
/// Numbers and their units may be written together or apart (`40s`, `40 s`, `6.5km`);
/// a double-quoted word may hold spaces; `#` starts a comment outside quotes.
struct ScenarioLineCursor {
    let words: [String]
    var index = 0
    let line: Int
    let sourceName: String

    init(text: Substring, line: Int, sourceName: String) throws(SimScenarioError) {
        self.line = line
        self.sourceName = sourceName
        var words: [String] = []
        var current = ""
        var inQuotes = false
        var hasWord = false
        for char in text {
            if inQuotes {
                if char == "\"" { inQuotes = false } else { current.append(char) }
                continue
            }
            switch char {
            case "\"":
                inQuotes = true
                hasWord = true
            case "#":
                if hasWord { words.append(current) }
                self.words = words
                return
            case " ", "\t", "\r":
                if hasWord { words.append(current) }
                current = ""
                hasWord = false
            default:
                current.append(char)
                hasWord = true
            }
        }
        if inQuotes {
            throw SimScenarioError(sourceName: sourceName, line: line, message: "unterminated quoted text")
        }
        if hasWord { words.append(current) }
        self.words = words
    }

    var isAtEnd: Bool { index >= words.count }
    var peek: String? { isAtEnd ? nil : words[index] }
    var rest: [String] { Array(words[index...]) }
    /// Whether the next word starts with a digit (a number, or a quantity such as `40s`).
    var nextIsNumber: Bool { peek?.first?.isNumber == true }

    /// The next word, lowercased, when it is one of `choices`: "unknown WHAT 'x' (choices)" otherwise.
    mutating func choice(_ what: String, _ choices: [String]) throws(SimScenarioError) -> String {
        let word = try next(what).lowercased()
        guard choices.contains(word) else { throw error("unknown \(what) '\(word)' (\(choices.joined(separator: ", ")))") }
        return word
    }

    /// Calls `body` with each remaining word, lowercased and consumed (an attribute or option
    /// and then whatever values `body` reads).
    mutating func forEachOption(_ body: (String, inout ScenarioLineCursor) throws(SimScenarioError) -> Void) throws(SimScenarioError) {
        while let word = peek?.lowercased() {
            index += 1
            try body(word, &self)
        }
    }

    func error(_ message: String) -> SimScenarioError {
        SimScenarioError(sourceName: sourceName, line: line, message: message)
    }

    mutating func next(_ what: String) throws(SimScenarioError) -> String {
        guard let word = peek else { throw error("missing \(what)") }
        index += 1
        return word
    }

    /// The next word as `parse` reads it; `message(word)` is the error when it cannot.
    mutating func next<Value>(_ what: String, as parse: (String) -> Value?, else message: (String) -> String)
        throws(SimScenarioError) -> Value
    {
        let word = try next(what)
        guard let value = parse(word) else { throw error(message(word)) }
        return value
    }

    /// Consumes the next word when it equals `word` (case-insensitively).
    mutating func accept(_ word: String) -> Bool {
        guard let next = peek, next.lowercased() == word else { return false }
        index += 1
        return true
    }

    mutating func expect(_ word: String) throws(SimScenarioError) {
        guard accept(word) else { throw error("expected '\(word)'" + (peek.map { ", found '\($0)'" } ?? " at the end of the line")) }
    }

    func requireEnd() throws(SimScenarioError) {
        if let extra = peek { throw error("unexpected '\(extra)'") }
    }

    mutating func integer(_ what: String) throws(SimScenarioError) -> Int {
        let word = try next(what)
        if word.hasPrefix("0x") || word.hasPrefix("0X"), let value = Int(word.dropFirst(2), radix: 16) { return value }
        guard let value = Int(word) else { throw error("\(what) '\(word)' is not a whole number") }
        return value
    }

    mutating func number(_ what: String) throws(SimScenarioError) -> Double {
        let word = try next(what)
        guard let value = Double(word), value.isFinite else { throw error("\(what) '\(word)' is not a number") }
        return value
    }

    /// A number followed by one of `units` (written together or apart); returns value × factor.
    mutating func quantity(_ what: String, units: [(names: [String], factor: Double)], defaultUnit: Double? = nil)
        throws(SimScenarioError) -> Double
    {
        let word = try next(what)
        let split = word.firstIndex { !($0.isNumber || $0 == "." || $0 == "-" || $0 == "+") } ?? word.endIndex
        let numberText = word[..<split]
        var unitText = String(word[split...]).lowercased()
        guard let value = Double(numberText), value.isFinite else {
            throw error("\(what) '\(word)' is not a number")
        }
        if unitText.isEmpty, let candidate = peek?.lowercased(),
            units.contains(where: { $0.names.contains(candidate) })
        {
            unitText = candidate
            index += 1
        }
        if unitText.isEmpty {
            if let defaultUnit { return value * defaultUnit }
            let names = units.map { $0.names[0] }.joined(separator: ", ")
            throw error("\(what) '\(word)' needs a unit (\(names))")
        }
        guard let unit = units.first(where: { $0.names.contains(unitText) }) else {
            let names = units.map { $0.names[0] }.joined(separator: ", ")
            throw error("unknown unit '\(unitText)' for \(what) (use \(names))")
        }
        return value * unit.factor
    }

    /// A duration in milliseconds: `500 ms`, `40 s`, `6 min`, `2 h`.
    mutating func duration(_ what: String) throws(SimScenarioError) -> Int64 {
        let value = try quantity(what, units: [
            (["s", "sec", "secs", "second", "seconds"], 1000), (["ms"], 1),
            (["min", "mins", "minute", "minutes"], 60_000), (["h", "hour", "hours"], 3_600_000),
        ])
        guard value >= 0 else { throw error("\(what) cannot be negative") }
        return Int64(value.rounded())
    }

    /// A distance in metres: `300 m`, `6.5 km`.
    mutating func distance(_ what: String) throws(SimScenarioError) -> Double {
        let value = try quantity(what, units: [(["m", "meters", "metres"], 1), (["km"], 1000)])
        guard value >= 0 else { throw error("\(what) cannot be negative") }
        return value
    }

    /// A rate per minute: `2 /min`, `30/h`.
    mutating func ratePerMinute(_ what: String) throws(SimScenarioError) -> Double {
        let value = try quantity(what, units: [(["/min", "per-min"], 1), (["/h", "per-hour"], 1.0 / 60), (["/s"], 60)])
        guard value >= 0 else { throw error("\(what) cannot be negative") }
        return value
    }

    /// A percentage as a fraction: `0.5 %`.
    mutating func percent(_ what: String) throws(SimScenarioError) -> Double {
        let value = try quantity(what, units: [(["%"], 0.01)])
        guard (0...100).contains(value * 100) else { throw error("\(what) must be 0 to 100 %") }
        return value
    }

    /// Hex bytes with or without `:` separators.
    mutating func hexBytes(_ what: String) throws(SimScenarioError) -> [UInt8] {
        let word = try next(what)
        guard let bytes = ScenarioLineCursor.hex(word) else { throw error("\(what) '\(word)' is not hex bytes") }
        return bytes
    }

    static func hex(_ word: String) -> [UInt8]? {
        let digits = word.filter { $0 != ":" }
        guard !digits.isEmpty, digits.utf8.count % 2 == 0 else { return nil }
        return Hex.bytes(digits)
    }

    static func looksLikeHex(_ word: String) -> Bool {
        word.contains(":") && hex(word) != nil
    }
}
