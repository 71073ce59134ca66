#if canImport(Glibc)
import Glibc
#endif

/// Why a notification could not reach systemd's `NOTIFY_SOCKET`.
public enum SystemdNotifyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `NOTIFY_SOCKET` is neither an absolute path nor an `@` abstract name, or does not fit a `sockaddr_un`.
    case unsupportedAddress(String)
    case system(address: String, operation: String, errnoCode: Int32)

    public var description: String {
        switch self {
        case let .unsupportedAddress(address):
            "NOTIFY_SOCKET \(address) is not an absolute path or @name that fits a Unix socket address"
        case let .system(address, operation, code):
            "cannot \(operation) NOTIFY_SOCKET \(address): \(String(cString: strerror(code)))"
        }
    }
}
