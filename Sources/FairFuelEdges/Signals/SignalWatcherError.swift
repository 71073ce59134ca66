#if canImport(Glibc)
import Glibc
#endif

/// Why the signal descriptor could not be set up or read.
public struct SignalWatcherError: Error, Sendable, Equatable, CustomStringConvertible {
    public var operation: String
    public var errnoCode: Int32

    public init(operation: String, errnoCode: Int32) {
        self.operation = operation
        self.errnoCode = errnoCode
    }

    public var description: String { "cannot \(operation): \(String(cString: strerror(errnoCode)))" }
}
