/// Text from people or devices (driver and vehicle names, a dongle's records) made safe to print
/// on a terminal: printable Unicode stays as it is; control characters (C0, DEL, C1) and the
/// invisible bidirectional controls that reorder a line become visible escapes such as `\u{1B}`,
/// so that a name cannot clear the screen, retitle the terminal or disguise what follows it.
/// The text outputs' counterpart of the HTML report's escaping.
public enum TerminalText {
    /// `text` with every control and bidi override shown as `\u{HEX}`; `text` itself when it has none.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` escaped, then padded with spaces to `width` characters (one space at least): a table's cell.
    public static func padded(_ text: String, _ width: Int) -> String {
        let shown = escaped(text)
        return shown.count >= width ? shown + " " : shown + String(repeating: " ", count: width - shown.count)
    }

    /// C0 controls (tab and newline too: a name is one line), DEL, C1 controls, the line and
    /// paragraph separators, and the bidi marks, embeddings, overrides and isolates.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
