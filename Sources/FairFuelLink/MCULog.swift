/// LOG (0x7D): a line from the MCU's own log.
public struct MCULog: Sendable, Equatable {
    public enum Level: UInt8, Sendable, CaseIterable {
        case debug = 0, info, warn, error

        public var name: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warn: "warn"
            case .error: "error"
            }
        }
    }

    public var level: Level
    /// UTF-8 as sent.
    public var textBytes: ArraySlice<UInt8>

    public init(level: Level, text: String) {
        self.level = level
        textBytes = ArraySlice(text.utf8)
    }

    /// The text, each invalid UTF-8 sequence replaced by U+FFFD.
    public var text: String { String(decoding: textBytes, as: UTF8.self) }

    static func parse(_ payload: ArraySlice<UInt8>) throws(PayloadError) -> MCULog {
        var reader = PayloadReader(payload, type: .log)
        try reader.requireLength(1, 250)
        let level: Level = try reader.enumValue(reader.u8(), field: "level")
        var log = MCULog(level: level, text: "")
        log.textBytes = reader.rest()
        return log
    }

    func write(to writer: inout PayloadWriter) {
        writer.u8(level.rawValue)
        writer.append(textBytes)
    }
}
