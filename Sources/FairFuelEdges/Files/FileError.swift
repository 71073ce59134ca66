#if canImport(Glibc)
import Glibc
#endif

/// A file could not be read or written; carries the path and the system's reason.
public struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var operation: String
    public var errnoCode: Int32
    /// What stood at `path` when a regular file was needed ("a FIFO", "a directory"); nil otherwise.
    public var foundInstead: String?

    public init(path: String, operation: String, errnoCode: Int32, foundInstead: String? = nil) {
        self.path = path
        self.operation = operation
        self.errnoCode = errnoCode
        self.foundInstead = foundInstead
    }

    /// `path` names `found` where a regular file was needed (errno EINVAL, for callers that keep only a code).
    public static func notARegularFile(path: String, operation: String, found: String) -> FileError {
        FileError(path: path, operation: operation, errnoCode: EINVAL, foundInstead: found)
    }

    public var reason: String {
        foundInstead.map { "it is \($0), not a regular file" } ?? String(cString: strerror(errnoCode))
    }

    public var description: String { "cannot \(operation) \(path): \(reason)" }
}

extension FileError {
    /// The file (or a directory on its path) does not exist.
    public var isNotFound: Bool { errnoCode == ENOENT }
}
