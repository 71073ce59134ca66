/// How a log line starts: what journald understands, or what a person at a terminal reads.
public enum LogLineStyle: Sendable, Equatable {
    /// `<6>message key=value`: the sd-daemon priority prefix journald turns into the entry's level.
    case journal
    /// `INFO message key=value`.
    case plain
}
