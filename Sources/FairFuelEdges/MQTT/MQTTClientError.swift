#if canImport(Glibc)
import Glibc
#endif

/// Why the MQTT client could not connect or publish; never carries a password.
public enum MQTTClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The broker refused the user name or password (CONNACK 4, or 0x86 in MQTT 5).
    case badCredentials
    /// The broker refused this client (CONNACK 5, or 0x87 in MQTT 5).
    case notAuthorized
    /// Any other refusal, with the broker's CONNACK code.
    case refused(reasonCode: Int)
    /// No TCP connection to the broker (refused, timed out, network unreachable).
    case unreachable(host: String, port: Int, errnoCode: Int32)
    /// The broker's host name did not resolve.
    case lookupFailed(host: String)
    /// A certificate, key or credentials file cannot be read; `role` says which.
    case unreadableFile(role: String, path: String, errnoCode: Int32)
    /// A file that is not there at all (ENOENT): `unreadableFile` with the system's reason.
    public static func missingFile(role: String, path: String) -> MQTTClientError {
        .unreadableFile(role: role, path: path, errnoCode: ENOENT)
    }
    /// A certificate, key or credentials file is a FIFO, directory or device (`found` says which):
    /// refused before anything opens it for reading, which could block the service.
    case notARegularFile(role: String, path: String, found: String)
    /// `unreadableFile`, or `notARegularFile` when that is why.
    static func unreadable(role: String, _ error: FileError) -> MQTTClientError {
        if let found = error.foundInstead { return .notARegularFile(role: role, path: error.path, found: found) }
        return .unreadableFile(role: role, path: error.path, errnoCode: error.errnoCode)
    }
    /// The credentials file can be read by its group or by others.
    case credentialsFileTooOpen(path: String, mode: UInt32)
    /// The credentials file is not a user name line and a password line.
    case malformedCredentials(path: String)
    /// The TLS handshake failed (unknown CA, wrong host, bad client certificate).
    case tls(String)
    /// The connection dropped.
    case connectionLost(String)
    /// A publish while no connection is up: the message stays with the caller.
    case notConnected
    /// libmosquitto (Debian package libmosquitto1) cannot be loaded.
    case libraryMissing(String)
    /// Any other libmosquitto failure.
    case library(operation: String, code: Int32, message: String)

    public var description: String {
        switch self {
        case .badCredentials: "the broker refused the user name or password"
        case .notAuthorized: "the broker refused this client: not authorised"
        case let .refused(code): "the broker refused the connection (reason code \(code))"
        case let .unreachable(host, port, code): "cannot reach the broker at \(host):\(port) (errno \(code))"
        case let .lookupFailed(host): "the broker's host name \(host) does not resolve"
        case let .unreadableFile(role, path, code): "cannot read the \(role) \(path) (errno \(code))"
        case let .notARegularFile(role, path, found): "the \(role) \(path) is \(found), not a regular file"
        case let .credentialsFileTooOpen(path, mode):
            "the credentials file \(path) is readable by others (mode \(String(mode & 0o777, radix: 8))); make it 0600 or 0400"
        case let .malformedCredentials(path): "the credentials file \(path) must hold a user name line and a password line"
        case let .tls(reason): "TLS with the broker failed: \(reason)"
        case let .connectionLost(reason): "the connection to the broker dropped: \(reason)"
        case .notConnected: "not connected to the broker"
        case let .libraryMissing(detail): "libmosquitto (Debian package libmosquitto1) is needed for the MQTT uplink: \(detail)"
        case let .library(operation, code, message): "libmosquitto \(operation) failed (\(code)): \(message)"
        }
    }
}
