/// Why a board or MCU profile was refused; each message names the line and key to fix.
public enum ProfileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file is not in FairFuel's TOML subset.
    case syntax(TOMLError)
    /// A `[section]` the profile does not have; `known` lists the ones it has.
    case unknownSection(line: Int, name: String, known: [String])
    /// A key the section does not have (`section` is empty for a key above the first header).
    case unknownKey(line: Int, section: String, key: String, known: [String])
    /// `key` (as `section.key`) holds a value of the wrong kind.
    case wrongType(line: Int, key: String, expected: String, found: String)
    /// `key` (as `section.key`) holds a value outside what `allowed` says; `line`
    /// is nil when the value came from no file (a default or a value set in code).
    case outOfRange(line: Int?, key: String, value: String, allowed: String)
    /// A key that has no default (MCU profiles) is absent.
    case missingKey(section: String, key: String)
    /// Two MCU profiles claim the same name, board_id or USB id.
    case conflict(what: String, first: String, second: String)
    /// The file could not be read: `problem` says which step failed and why (`cannot open PATH: reason`).
    case file(path: String, problem: String)
    /// `error`, found in the file at `path`.
    indirect case inFile(path: String, ProfileError)

    /// The line the error points at, when it points at one.
    public var line: Int? {
        let line: Int? = switch self {
        case let .syntax(error): error.line
        case let .unknownSection(line, _, _), let .unknownKey(line, _, _, _), let .wrongType(line, _, _, _):
            line
        case let .outOfRange(line, _, _, _): line
        case .missingKey, .conflict, .file: nil
        case let .inFile(_, error): error.line
        }
        return line.flatMap { $0 > 0 ? $0 : nil }
    }

    /// `line N: `, or nothing for a value that came from no file (line 0 or nil).
    private static func at(_ line: Int?) -> String {
        guard let line, line > 0 else { return "" }
        return "line \(line): "
    }

    public var description: String {
        switch self {
        case let .syntax(error):
            return error.description
        case let .unknownSection(line, name, known):
            let hint = Self.suggestion(for: name, among: known).map { " (did you mean [\($0)]?)" } ?? ""
            return Self.at(line) + "unknown section [\(name)]\(hint); the sections are "
                + known.map { "[\($0)]" }.joined(separator: ", ")
        case let .unknownKey(line, section, key, known):
            let hint = Self.suggestion(for: key, among: known).map { " (did you mean '\($0)'?)" } ?? ""
            if section.isEmpty {
                return Self.at(line) + "key '\(key)' is above the first [section]; every key belongs in a section, "
                    + "one of " + known.map { "[\($0)]" }.joined(separator: ", ")
            }
            return Self.at(line) + "unknown key '\(key)' in [\(section)]\(hint); the keys of [\(section)] are "
                + known.joined(separator: ", ")
        case let .wrongType(line, key, expected, found):
            return Self.at(line) + "\(key) must be \(Self.article(expected)) \(expected), not \(Self.article(found)) \(found)"
        case let .outOfRange(line, key, value, allowed):
            return Self.at(line) + "\(key) = \(value) is not allowed: \(allowed)"
        case let .missingKey(section, key):
            return "missing key '\(key)' in [\(section)]: it has no default, so the profile must set it"
        case let .conflict(what, first, second):
            return "MCU profiles '\(first)' and '\(second)' both claim \(what)"
        case let .file(_, problem):
            return problem
        case let .inFile(path, error):
            return "\(path): \(error)"
        }
    }

    private static func article(_ noun: String) -> String {
        guard let first = noun.first else { return "a" }
        return "aeiou".contains(first) ? "an" : "a"
    }

    /// The closest of `candidates` to `word`, when it is close enough to be a typo.
    static func suggestion(for word: String, among candidates: [String]) -> String? {
        var best: (String, Int)?
        for candidate in candidates {
            let distance = editDistance(Array(word.utf8), Array(candidate.utf8))
            if distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
        }
        guard let (candidate, distance) = best, distance > 0 else { return nil }
        return distance <= max(2, candidate.utf8.count / 3) ? candidate : nil
    }

    /// Levenshtein distance between two byte strings.
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
