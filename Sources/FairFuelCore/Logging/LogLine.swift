/// Formats one log event as one line of bytes; no I/O.
///
/// A line never contains a newline before its end: control characters in the
/// message are escaped (`\n`, `\r`, `\t`, `\xHH`), and a field value that is
/// empty or holds a space, `"`, `=`, `\` or a control character is quoted with
/// `"` and `\` escapes. Keys keep `[A-Za-z0-9_.-]`; other bytes become `_`.
public enum LogLine {
    /// Appends the event and its trailing `\n` to `line`.
    public static func append(
        level: LogLevel, message: String, fields: KeyValuePairs<String, String> = [:], style: LogLineStyle,
        to line: inout [UInt8]
    ) {
        switch style {
        case .journal:
            line.append(UInt8(ascii: "<"))
            line.append(UInt8(ascii: "0") + level.rawValue)
            line.append(UInt8(ascii: ">"))
        case .plain:
            for byte in plainLabel(level).utf8 { line.append(byte) }
            line.append(UInt8(ascii: " "))
        }
        for byte in message.utf8 { appendEscaped(byte, to: &line) }
        for (key, value) in fields {
            line.append(UInt8(ascii: " "))
            if key.isEmpty { line.append(UInt8(ascii: "_")) }
            for byte in key.utf8 { line.append(isKeyByte(byte) ? byte : UInt8(ascii: "_")) }
            line.append(UInt8(ascii: "="))
            appendValue(value, to: &line)
        }
        line.append(UInt8(ascii: "\n"))
    }

    /// The event as a `String` with its trailing newline (for tests and diagnostics).
    public static func text(
        level: LogLevel, message: String, fields: KeyValuePairs<String, String> = [:], style: LogLineStyle
    ) -> String {
        var line: [UInt8] = []
        line.reserveCapacity(estimatedByteCount(message: message, fields: fields))
        append(level: level, message: message, fields: fields, style: style, to: &line)
        return String(decoding: line, as: UTF8.self)
    }

    /// Room that holds the line unless it needs many escapes, so one reservation usually suffices.
    public static func estimatedByteCount(message: String, fields: KeyValuePairs<String, String>) -> Int {
        var count = 12 + message.utf8.count
        for (key, value) in fields { count += key.utf8.count + value.utf8.count + 4 }
        return count
    }

    /// `ERROR`, `WARNING`, `NOTICE`, `INFO`, `DEBUG`.
    public static func plainLabel(_ level: LogLevel) -> String {
        switch level {
        case .error: "ERROR"
        case .warning: "WARNING"
        case .notice: "NOTICE"
        case .info: "INFO"
        case .debug: "DEBUG"
        }
    }

    static func isKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"):
            true
        default: false
        }
    }

    static func isControl(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x7F }

    static func appendValue(_ value: String, to line: inout [UInt8]) {
        var needsQuotes = value.isEmpty
        for byte in value.utf8 where byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\"")
            || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "\\") || isControl(byte)
        {
            needsQuotes = true
            break
        }
        guard needsQuotes else {
            line.append(contentsOf: value.utf8)
            return
        }
        line.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                line.append(UInt8(ascii: "\\"))
                line.append(byte)
            } else {
                appendEscaped(byte, to: &line)
            }
        }
        line.append(UInt8(ascii: "\""))
    }

    static func appendEscaped(_ byte: UInt8, to line: inout [UInt8]) {
        guard isControl(byte) else {
            line.append(byte)
            return
        }
        line.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\n"): line.append(UInt8(ascii: "n"))
        case UInt8(ascii: "\r"): line.append(UInt8(ascii: "r"))
        case UInt8(ascii: "\t"): line.append(UInt8(ascii: "t"))
        default:
            let digits: StaticString = "0123456789abcdef"
            line.append(UInt8(ascii: "x"))
            line.append(digits.utf8Start[Int(byte >> 4)])
            line.append(digits.utf8Start[Int(byte & 0x0F)])
        }
    }
}
