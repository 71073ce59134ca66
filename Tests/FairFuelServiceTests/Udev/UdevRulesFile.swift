/// A strict reader for udev rules files, enough to check FairFuel's rules without udev.
///
/// Grammar (udev(7)): a rule is one logical line (a trailing `\` continues it)
/// of comma-separated `KEY[{attribute}] operator "value"` pairs; `#` starts a
/// comment line. Keys and the operators each key takes follow udev(7) of
/// systemd 252.
struct UdevRulesFile {
    enum Operator: String, CaseIterable, Sendable {
        case match = "=="
        case notMatch = "!="
        case assign = "="
        case add = "+="
        case remove = "-="
        case assignFinal = ":="

        var isMatch: Bool { self == .match || self == .notMatch }
    }

    struct Pair: Equatable, Sendable, CustomStringConvertible {
        var key: String
        var attribute: String?
        var op: Operator
        var value: String

        var description: String { key + (attribute.map { "{\($0)}" } ?? "") + op.rawValue + "\"\(value)\"" }
    }

    struct Rule: Sendable {
        /// 1-based line where the rule starts.
        var line: Int
        var pairs: [Pair]
        /// The comment lines right above the rule (no blank line between), without `#`.
        var comment: [String]

        /// Values of `key{attribute} op`, in order.
        func values(_ key: String, _ attribute: String? = nil, _ op: Operator? = nil) -> [String] {
            pairs.filter { $0.key == key && $0.attribute == attribute && (op == nil || $0.op == op) }.map(\.value)
        }

        func matches(_ key: String, _ attribute: String? = nil) -> String? {
            values(key, attribute, .match).first
        }
    }

    enum SyntaxError: Error, Equatable {
        case unknownKey(line: Int, key: String)
        case attributeMissing(line: Int, key: String)
        case attributeNotAllowed(line: Int, key: String)
        case badOperator(line: Int, key: String, op: String)
        case expectedQuote(line: Int)
        case unbalancedQuote(line: Int)
        case unclosedAttribute(line: Int)
        case expectedComma(line: Int)
        case emptyPair(line: Int)
        case continuationAtEnd(line: Int)
    }

    /// How each key may be written: whether it takes `{attribute}`, and its operators.
    struct KeySpec {
        enum Attribute { case required, optional, forbidden }
        var attribute: Attribute
        var operators: Set<Operator>
    }

    static let match: Set<Operator> = [.match, .notMatch]
    static let assign: Set<Operator> = [.assign, .assignFinal]
    static let list: Set<Operator> = [.assign, .add, .remove, .assignFinal]

    static let keys: [String: KeySpec] = [
        "ACTION": KeySpec(attribute: .forbidden, operators: match),
        "DEVPATH": KeySpec(attribute: .forbidden, operators: match),
        "KERNEL": KeySpec(attribute: .forbidden, operators: match),
        "KERNELS": KeySpec(attribute: .forbidden, operators: match),
        "SUBSYSTEM": KeySpec(attribute: .forbidden, operators: match),
        "SUBSYSTEMS": KeySpec(attribute: .forbidden, operators: match),
        "DRIVER": KeySpec(attribute: .forbidden, operators: match),
        "DRIVERS": KeySpec(attribute: .forbidden, operators: match),
        "TAGS": KeySpec(attribute: .forbidden, operators: match),
        "RESULT": KeySpec(attribute: .forbidden, operators: match),
        "ATTRS": KeySpec(attribute: .required, operators: match),
        "CONST": KeySpec(attribute: .required, operators: match),
        "TEST": KeySpec(attribute: .optional, operators: match),
        "NAME": KeySpec(attribute: .forbidden, operators: match.union(assign)),
        "SYMLINK": KeySpec(attribute: .forbidden, operators: match.union(list)),
        "TAG": KeySpec(attribute: .forbidden, operators: match.union(list)),
        "ATTR": KeySpec(attribute: .required, operators: match.union(assign)),
        "SYSCTL": KeySpec(attribute: .required, operators: match.union(assign)),
        "ENV": KeySpec(attribute: .required, operators: match.union([.assign, .add, .assignFinal])),
        "PROGRAM": KeySpec(attribute: .forbidden, operators: match.union([.assign])),
        "IMPORT": KeySpec(attribute: .required, operators: match.union([.assign])),
        "OPTIONS": KeySpec(attribute: .forbidden, operators: [.assign, .add, .assignFinal]),
        "OWNER": KeySpec(attribute: .forbidden, operators: assign),
        "GROUP": KeySpec(attribute: .forbidden, operators: assign),
        "MODE": KeySpec(attribute: .forbidden, operators: assign),
        "SECLABEL": KeySpec(attribute: .required, operators: [.assign, .add, .assignFinal]),
        "RUN": KeySpec(attribute: .optional, operators: [.assign, .add, .assignFinal]),
        "LABEL": KeySpec(attribute: .forbidden, operators: [.assign]),
        "GOTO": KeySpec(attribute: .forbidden, operators: [.assign]),
    ]

    var rules: [Rule]

    init(text: String) throws(SyntaxError) {
        rules = []
        var pendingComment: [String] = []
        var logical = ""
        var logicalLine = 0
        let physical = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (index, raw) in physical.enumerated() {
            let number = index + 1
            if logical.isEmpty { logicalLine = number }
            if raw.hasSuffix("\\") {
                logical += raw.dropLast() + " "
                if index == physical.count - 1 { throw .continuationAtEnd(line: logicalLine) }
                continue
            }
            logical += raw
            let line = logical.drop { $0 == " " || $0 == "\t" }
            logical = ""
            if line.isEmpty {
                pendingComment = []
            } else if line.hasPrefix("#") {
                pendingComment.append(String(line.dropFirst()).trimmingSpaces)
            } else {
                rules.append(Rule(line: logicalLine, pairs: try Self.pairs(of: Substring(line), line: logicalLine), comment: pendingComment))
                pendingComment = []
            }
        }
    }

    private static func pairs(of text: Substring, line: Int) throws(SyntaxError) -> [Pair] {
        var rest = text[...]
        var pairs: [Pair] = []
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            let key = String(rest.prefix { $0.isUppercase || $0 == "_" })
            guard !key.isEmpty else { throw .emptyPair(line: line) }
            rest = rest.dropFirst(key.count)
            var attribute: String?
            if rest.first == "{" {
                guard let close = rest.firstIndex(of: "}") else { throw .unclosedAttribute(line: line) }
                attribute = String(rest[rest.index(after: rest.startIndex)..<close])
                rest = rest[rest.index(after: close)...]
            }
            guard let spec = keys[key] else { throw .unknownKey(line: line, key: key) }
            switch (spec.attribute, attribute) {
            case (.required, nil), (.required, ""?): throw .attributeMissing(line: line, key: key)
            case (.forbidden, _?): throw .attributeNotAllowed(line: line, key: key)
            default: break
            }
            rest = rest.drop { $0 == " " || $0 == "\t" }
            let opText = String(rest.prefix { "=!+-:".contains($0) })
            guard let op = Operator(rawValue: opText), spec.operators.contains(op) else {
                throw .badOperator(line: line, key: key, op: opText)
            }
            rest = rest.dropFirst(opText.count).drop { $0 == " " || $0 == "\t" }
            guard rest.first == "\"" else { throw .expectedQuote(line: line) }
            rest = rest.dropFirst()
            var value = ""
            var closed = false
            while let character = rest.first {
                rest = rest.dropFirst()
                if character == "\\", rest.first == "\"" {
                    value.append("\"")
                    rest = rest.dropFirst()
                } else if character == "\"" {
                    closed = true
                    break
                } else {
                    value.append(character)
                }
            }
            guard closed else { throw .unbalancedQuote(line: line) }
            pairs.append(Pair(key: key, attribute: attribute, op: op, value: value))
            rest = rest.drop { $0 == " " || $0 == "\t" }
            if rest.isEmpty { return pairs }
            guard rest.first == "," else { throw .expectedComma(line: line) }
            rest = rest.dropFirst()
        }
    }
}

extension String {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
