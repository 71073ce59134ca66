/// Renders a `TOMLTable` as a document that `TOMLParser` reads back to an equal table.
///
/// Keys keep their order; each table's plain keys come before its sub-tables,
/// as TOML requires. Floats must be finite (the subset has no `inf` or `nan`).
public enum TOMLWriter {
    public static func render(_ table: TOMLTable) -> String {
        var out = ""
        write(table, path: [], into: &out)
        return out
    }

    private static func write(_ table: TOMLTable, path: [String], into out: inout String) {
        for entry in table.entries {
            switch entry.value {
            case .table, .tableArray: continue
            default: out += key(entry.key) + " = " + value(entry.value) + "\n"
            }
        }
        for entry in table.entries {
            let subPath = path + [entry.key]
            let header = subPath.map(key).joined(separator: ".")
            switch entry.value {
            case let .table(sub):
                out += (out.isEmpty ? "" : "\n") + "[" + header + "]\n"
                write(sub, path: subPath, into: &out)
            case let .tableArray(elements):
                for element in elements {
                    out += (out.isEmpty ? "" : "\n") + "[[" + header + "]]\n"
                    write(element, path: subPath, into: &out)
                }
            default:
                continue
            }
        }
    }

    /// `name` bare when it can be, else as a basic string.
    public static func key(_ name: String) -> String {
        if !name.isEmpty, name.utf8.allSatisfy(TOMLBytes.isBareKey) { return name }
        return quoted(name)
    }

    /// One value as TOML text; arrays on one line.
    public static func value(_ value: TOMLValue) -> String {
        switch value {
        case let .string(text): quoted(text)
        case let .integer(number): String(number)
        case let .float(number): float(number)
        case let .boolean(flag): flag ? "true" : "false"
        case let .array(elements): "[" + elements.map(Self.value).joined(separator: ", ") + "]"
        case .table, .tableArray: "{}"  // not reached from render: tables get headers
        }
    }

    private static func float(_ number: Double) -> String {
        // Swift prints the shortest text that reads back to the same Double:
        // `100.0`, `1e-05`, `1e+16`; all are TOML floats once they hold a `.` or an `e`.
        let text = "\(number)"
        if text.contains(".") || text.contains("e") || !number.isFinite { return text }
        return text + ".0"
    }

    /// `text` as a TOML basic string, escaping quotes, backslashes and control characters.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{08}": out += "\\b"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\u{0C}": out += "\\f"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
