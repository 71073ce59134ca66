/// The few Python expressions ndeflib's vectors use for expected values: strings, bytes, ints,
/// None, tuples, lists, `n * [list]` and constructor calls such as `ndef.UriRecord('x')`.
indirect enum PythonLiteral: Equatable {
    case string(String)
    case bytes([UInt8])
    case int(Int)
    case none
    case list([PythonLiteral])
    case call(name: String, arguments: [PythonLiteral])

    enum ParseError: Error { case unexpected(String) }

    static func parse(_ text: String) throws -> PythonLiteral {
        var parser = Parser(characters: Array(text))
        let value = try parser.expression()
        parser.skipSpaces()
        guard parser.position == parser.characters.count else { throw ParseError.unexpected(text) }
        return value
    }

    var string: String? { if case .string(let value) = self { value } else { nil } }

    private struct Parser {
        let characters: [Character]
        var position = 0

        mutating func skipSpaces() {
            while position < characters.count, characters[position] == " " { position += 1 }
        }

        mutating func expression() throws -> PythonLiteral {
            let value = try atom()
            skipSpaces()
            if position < characters.count, characters[position] == "*" {
                position += 1
                skipSpaces()
                let other = try atom()
                switch (value, other) {
                case (.int(let count), .list(let items)), (.list(let items), .int(let count)):
                    return .list(Array([[PythonLiteral]](repeating: items, count: count).joined()))
                case (.int(let count), .bytes(let bytes)), (.bytes(let bytes), .int(let count)):
                    return .bytes(Array([[UInt8]](repeating: bytes, count: count).joined()))
                case (.int(let count), .string(let text)), (.string(let text), .int(let count)):
                    return .string(String(repeating: text, count: count))
                default:
                    throw ParseError.unexpected("*")
                }
            }
            if position < characters.count, characters[position] == "+" {
                position += 1
                skipSpaces()
                guard case .string(let left) = value, case .string(let right) = try expression() else {
                    throw ParseError.unexpected("+")
                }
                return .string(left + right)
            }
            return value
        }

        mutating func sequence(closing: Character) throws -> [PythonLiteral] {
            var items: [PythonLiteral] = []
            while true {
                skipSpaces()
                guard position < characters.count else { throw ParseError.unexpected("end") }
                if characters[position] == closing {
                    position += 1
                    return items
                }
                items.append(try expression())
                skipSpaces()
                if position < characters.count, characters[position] == "," { position += 1 }
            }
        }

        mutating func quoted() throws -> [Character] {
            position += 1  // opening quote
            var out: [Character] = []
            while position < characters.count, characters[position] != "'" {
                if characters[position] == "\\", position + 1 < characters.count {
                    let next = characters[position + 1]
                    if next == "x", position + 3 < characters.count,
                        let value = UInt8(String(characters[(position + 2)...(position + 3)]), radix: 16)
                    {
                        out.append(Character(Unicode.Scalar(value)))
                        position += 4
                        continue
                    }
                    out.append(next)
                    position += 2
                    continue
                }
                out.append(characters[position])
                position += 1
            }
            position += 1  // closing quote
            return out
        }

        mutating func atom() throws -> PythonLiteral {
            skipSpaces()
            guard position < characters.count else { throw ParseError.unexpected("end") }
            let char = characters[position]
            if char == "'" { return .string(String(try quoted())) }
            if char == "b", position + 1 < characters.count, characters[position + 1] == "'" {
                position += 1
                return .bytes(try quoted().map { UInt8($0.unicodeScalars.first!.value) })
            }
            if char == "(" {
                position += 1
                let items = try sequence(closing: ")")
                return items.count == 1 ? items[0] : .list(items)
            }
            if char == "[" {
                position += 1
                return .list(try sequence(closing: "]"))
            }
            if char.isNumber {
                var digits = ""
                while position < characters.count, characters[position].isNumber {
                    digits.append(characters[position])
                    position += 1
                }
                return .int(Int(digits)!)
            }
            var name = ""
            while position < characters.count, characters[position].isLetter || characters[position].isNumber
                || characters[position] == "." || characters[position] == "_"
            {
                name.append(characters[position])
                position += 1
            }
            guard !name.isEmpty else { throw ParseError.unexpected(String(char)) }
            if name == "None" { return .none }
            if position < characters.count, characters[position] == "(" {
                position += 1
                let shortName = name.split(separator: ".").last.map(String.init) ?? name
                return .call(name: shortName, arguments: try sequence(closing: ")"))
            }
            throw ParseError.unexpected(name)
        }
    }
}
