import FairFuelCore

#if canImport(Glibc)
import Glibc
#endif

/// Log lines on stderr: sd-daemon `<N>` prefixes when journald reads it, plain text otherwise.
///
/// Each line is one `write(2)` to descriptor 2, so lines from the service loop
/// and from any other thread never interleave within a line.
public enum StandardErrorLog {
    /// A logger writing to stderr, in `style` or else the one `detectStyle()` finds.
    public static func logger(minimumLevel: LogLevel = .info, style: LogLineStyle? = nil) -> Logger {
        Logger(minimumLevel: minimumLevel, style: style ?? detectStyle(), sink: { write($0) })
    }

    /// `.journal` when `JOURNAL_STREAM` names stderr's device and inode (systemd sets it for the unit's stdout/stderr),
    /// `.plain` otherwise, e.g. at a terminal or when stderr was redirected elsewhere.
    public static func detectStyle() -> LogLineStyle {
        guard let value = getenv("JOURNAL_STREAM") else { return .plain }
        var status = stat()
        guard fstat(2, &status) == 0 else { return .plain }
        return style(journalStream: String(cString: value), device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// The style for a `JOURNAL_STREAM` value (`DEVICE:INODE`, decimal) and the device and inode stderr is open on.
    public static func style(journalStream: String?, device: UInt64, inode: UInt64) -> LogLineStyle {
        guard let journalStream else { return .plain }
        let parts = journalStream.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let streamDevice = UInt64(parts[0]), let streamInode = UInt64(parts[1]) else {
            return .plain
        }
        return streamDevice == device && streamInode == inode ? .journal : .plain
    }

    /// Writes `line` to descriptor 2, retrying after an interruption or a partial write; drops it if stderr is gone.
    public static func write(_ line: [UInt8], to descriptor: Int32 = 2) {
        line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN {
                        var pending = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                        if poll(&pending, 1, 100) > 0 { continue }
                    }
                    return
                }
                offset += written
            }
        }
    }
}
