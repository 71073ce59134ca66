import FairFuelEdges

#if canImport(Glibc)
import Glibc
#endif

/// The few file operations a pull needs, without Foundation: atomic replace, durable append, read.
enum PullFiles {
    static func makeDirectory(_ path: String) throws(PullClientError) {
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw .file("cannot create the directory \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Writes `text` to `path` through a temporary file and a rename, so a reader never sees half of it.
    static func replace(_ path: String, with text: String) throws(PullClientError) {
        let temporary = path + ".partial"
        do {
            let writer = try CaptureFileWriter(path: temporary)
            try writer.write(text)
            try writer.close()
        } catch {
            throw .file("cannot write \(path): \(error)")
        }
        guard rename(temporary, path) == 0 else {
            throw .file("cannot rename \(temporary) to \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Appends `text` and syncs it: the journal line of a finished trip must survive an unplug.
    static func appendDurably(_ path: String, _ text: String) throws(PullClientError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .file("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw .file("cannot append to \(path): \(String(cString: strerror(errno)))")
            }
            offset += written
        }
        guard fsync(fd) == 0 else { throw .file("cannot sync \(path): \(String(cString: strerror(errno)))") }
    }

    /// The file's text, or nil when it does not exist.
    static func read(_ path: String) throws(PullClientError) -> String? {
        switch TextFileReader.readAll(path: path) {
        case let .success(bytes): return String(decoding: bytes, as: UTF8.self)
        case let .failure(error):
            if error.errnoCode == ENOENT { return nil }
            throw .file("cannot read \(path): \(error)")
        }
    }
}
