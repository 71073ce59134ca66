#if canImport(Glibc)
import Glibc
#endif

/// Opens files that must be regular files (certificates, keys, profiles, bundles, secrets) so that
/// nothing else stands in for them: the open cannot block (O_NONBLOCK: a FIFO with no writer, a
/// terminal) and `fstat` refuses a FIFO, directory, device or socket before a byte is read.
public enum RegularFile {
    /// A descriptor of the regular file `path`, blocking again, for reading; the caller closes it.
    public static func openForReading(_ path: String) throws(FileError) -> Int32 {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError(path: path, operation: "open", errnoCode: errno) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw FileError(path: path, operation: "stat", errnoCode: code)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw .notARegularFile(path: path, operation: "read", found: describe(mode: info.st_mode))
        }
        // Reads of a regular file never wait; blocking again keeps read(2)'s plain contract.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return descriptor
    }

    /// Throws unless `path` is a regular file this process can open for reading; reads nothing.
    /// For paths handed to a library that opens them itself (libmosquitto's `fopen`).
    public static func checkReadable(_ path: String) throws(FileError) {
        close(try openForReading(path))
    }

    /// "a FIFO", "a directory", ...: what a file of `mode` is, for messages.
    static func describe(mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "neither a file nor a directory"
        }
    }
}
