/// How severe a log event is, numbered as syslog and sd-daemon priorities (`<3>` is error).
///
/// Ordered by severity: `.error > .warning > .notice > .info > .debug`.
public enum LogLevel: UInt8, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    case error = 3
    case warning = 4
    case notice = 5
    case info = 6
    case debug = 7

    /// Parses `error`, `warning` (or `warn`), `notice`, `info` and `debug`, in any case.
    public init?(name: String) {
        switch name.lowercased() {
        case "error", "err": self = .error
        case "warning", "warn": self = .warning
        case "notice": self = .notice
        case "info": self = .info
        case "debug": self = .debug
        default: return nil
        }
    }

    /// The lower-case name, e.g. `warning`.
    public var name: String {
        switch self {
        case .error: "error"
        case .warning: "warning"
        case .notice: "notice"
        case .info: "info"
        case .debug: "debug"
        }
    }

    public var description: String { name }

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue > b.rawValue }
}
