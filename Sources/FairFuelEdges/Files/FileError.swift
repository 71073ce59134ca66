#if canImport(Glibc)
import Glibc
#endif

/// A file could not be read or written; carries the path and the system's reason.
public struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var operation: String
    public var errnoCode: Int32

    public init(path: String, operation: String, errnoCode: Int32) {
        self.path = path
        self.operation = operation
        self.errnoCode = errnoCode
    }

    public var reason: String { String(cString: strerror(errnoCode)) }

    public var description: String { "cannot \(operation) \(path): \(reason)" }
}

extension FileError {
    /// The file (or a directory on its path) does not exist.
    public var isNotFound: Bool { errnoCode == ENOENT }
}
