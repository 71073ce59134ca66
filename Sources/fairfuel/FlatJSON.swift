import FairFuelCore

/// The flat JSON object the service answers `mcu info` with: strings, numbers and one array of strings.
///
/// Strings are read with `JSONLine.readQuoted`, the inverse of the `JSONLine` the service writes
/// them with, so a name holding a newline, a quote or a control character reads back as it was.
struct FlatJSON {
    private var values: [String: String] = [:]
    private var lists: [String: [String]] = [:]

    init(_ text: String) {
        var scalars = Substring(text).unicodeScalars
        func skip() { while let c = scalars.first, c == " " || c == "," || c == ":" || c == "{" || c == "}" || c == "\n" { scalars.removeFirst() } }
        while true {
            skip()
            guard let key = JSONLine.readQuoted(&scalars) else { break }
            skip()
            if scalars.first == "[" {
                scalars.removeFirst()
                var items: [String] = []
                while true {
                    skip()
                    if scalars.first == "]" { scalars.removeFirst(); break }
                    guard let item = JSONLine.readQuoted(&scalars) else { break }
                    items.append(item)
                }
                lists[key] = items
            } else if let value = JSONLine.readQuoted(&scalars) {
                values[key] = value
            } else {
                var raw = ""
                while let c = scalars.first, c != ",", c != "}" { raw.unicodeScalars.append(c); scalars.removeFirst() }
                if raw != "null" { values[key] = raw }
            }
        }
    }

    subscript(key: String) -> String? { values[key] }
    func list(_ key: String) -> [String] { lists[key] ?? [] }
}
