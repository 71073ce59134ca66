#if canImport(Glibc)
import Glibc
#endif

/// Why a serial port could not be opened, configured, read or written.
public enum SerialPortError: Error, Sendable, Equatable, CustomStringConvertible {
    /// libserialport refused the port (it does for pseudo-terminals): the reason it gave.
    case libserialport(path: String, operation: String, message: String)
    case system(path: String, operation: String, errnoCode: Int32)
    case unsupportedBaudRate(Int)
    /// The device went away (unplugged): reads return end of file or EIO.
    case disconnected(path: String)

    public var description: String {
        switch self {
        case let .libserialport(path, operation, message): "libserialport cannot \(operation) \(path): \(message)"
        case let .system(path, operation, code): "cannot \(operation) \(path): \(String(cString: strerror(code)))"
        case let .unsupportedBaudRate(rate): "baud rate \(rate) is not supported"
        case let .disconnected(path): "\(path) was disconnected"
        }
    }
}
