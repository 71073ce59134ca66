/// Formats log events at or above a minimum level and hands each line to a sink.
///
/// The logger does no I/O itself: the sink writes the line (FairFuelEdges'
/// `StandardErrorLog` writes it to stderr in one `write(2)`; a test collects
/// it). Events below `minimumLevel` cost one comparison: the message and the
/// fields are autoclosures, built only when the line is.
public struct Logger: Sendable {
    public var minimumLevel: LogLevel
    public var style: LogLineStyle
    /// Receives each complete line, `\n` included; nil drops every event.
    public let sink: (@Sendable ([UInt8]) -> Void)?

    public init(minimumLevel: LogLevel = .info, style: LogLineStyle = .plain, sink: (@Sendable ([UInt8]) -> Void)?) {
        self.minimumLevel = minimumLevel
        self.style = style
        self.sink = sink
    }

    /// A logger that drops every event without formatting it.
    public static var disabled: Logger { Logger(sink: nil) }

    /// Whether an event at `level` would be written.
    public func isEnabled(_ level: LogLevel) -> Bool { sink != nil && level >= minimumLevel }

    /// Writes one event as one line when `level` is at or above `minimumLevel`.
    public func log(
        _ level: LogLevel, _ message: @autoclosure () -> String,
        _ fields: @autoclosure () -> KeyValuePairs<String, String> = [:]
    ) {
        guard let sink, level >= minimumLevel else { return }
        let message = message()
        let fields = fields()
        var line: [UInt8] = []
        line.reserveCapacity(LogLine.estimatedByteCount(message: message, fields: fields))
        LogLine.append(level: level, message: message, fields: fields, style: style, to: &line)
        sink(line)
    }

    public func error(_ message: @autoclosure () -> String, _ fields: @autoclosure () -> KeyValuePairs<String, String> = [:]) {
        log(.error, message(), fields())
    }

    public func warning(_ message: @autoclosure () -> String, _ fields: @autoclosure () -> KeyValuePairs<String, String> = [:]) {
        log(.warning, message(), fields())
    }

    public func notice(_ message: @autoclosure () -> String, _ fields: @autoclosure () -> KeyValuePairs<String, String> = [:]) {
        log(.notice, message(), fields())
    }

    public func info(_ message: @autoclosure () -> String, _ fields: @autoclosure () -> KeyValuePairs<String, String> = [:]) {
        log(.info, message(), fields())
    }

    public func debug(_ message: @autoclosure () -> String, _ fields: @autoclosure () -> KeyValuePairs<String, String> = [:]) {
        log(.debug, message(), fields())
    }
}
