#if canImport(Glibc)
import Glibc
#endif

/// The stable path the service opens: a symbolic link re-pointed at each new pseudo-terminal.
///
/// A real MCU on USB reappears as the same `/dev/fairfuel-mcu` (a udev symlink) after a
/// replug; this plays that part for the virtual one.
public enum DeviceLink {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case notALink(String)
        case system(operation: String, path: String, errnoCode: Int32)

        public var description: String {
            switch self {
            case .notALink(let path): "\(path) exists and is not a symbolic link; refusing to replace it"
            case .system(let operation, let path, let code): "cannot \(operation) \(path): \(String(cString: strerror(code)))"
            }
        }
    }

    /// Points `link` at `target`, atomically replacing an older link; creates the parent directory.
    public static func point(_ link: String, to target: String) throws(Failure) {
        if let slash = link.lastIndex(of: "/"), slash != link.startIndex {
            let directory = String(link[..<slash])
            if mkdir(directory, 0o755) != 0 && errno != EEXIST {
                throw .system(operation: "create the directory", path: directory, errnoCode: errno)
            }
        }
        var status = stat()
        if lstat(link, &status) == 0 && (status.st_mode & S_IFMT) != S_IFLNK {
            throw .notALink(link)
        }
        let temporary = link + ".new"
        unlink(temporary)
        guard symlink(target, temporary) == 0 else {
            throw .system(operation: "create the link", path: temporary, errnoCode: errno)
        }
        guard rename(temporary, link) == 0 else {
            let code = errno
            unlink(temporary)
            throw .system(operation: "rename a link onto", path: link, errnoCode: code)
        }
    }

    /// Removes `link` if it is a symbolic link (never a real file).
    public static func remove(_ link: String) {
        var status = stat()
        if lstat(link, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK { unlink(link) }
    }
}
