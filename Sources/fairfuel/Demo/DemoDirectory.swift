#if canImport(Glibc)
import Glibc
#endif

/// The demo's working directory: a fresh temporary one (removed afterwards), or one the
/// user keeps with `--keep DIR`.
public struct DemoDirectory: Sendable {
    public let path: String
    /// Whether `remove()` deletes it.
    public let isTemporary: Bool

    /// A new directory under `$TMPDIR` (else /tmp).
    public static func temporary() throws(DemoError) -> DemoDirectory {
        let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/fairfuel-demo-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw .directory(path: base, reason: String(cString: strerror(errno)))
        }
        return DemoDirectory(path: String(cString: made), isTemporary: true)
    }

    /// `path`, created when absent; refused when it already holds a store.
    public static func kept(_ path: String) throws(DemoError) -> DemoDirectory {
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw .directory(path: path, reason: String(cString: strerror(errno)))
        }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw .directory(path: path, reason: "not a directory")
        }
        guard access(path + "/fairfuel.db", F_OK) != 0 else {
            throw .directory(path: path, reason: "it already holds a store (fairfuel.db); pick an empty directory")
        }
        return DemoDirectory(path: path, isTemporary: false)
    }

    /// Deletes a temporary directory and the files in it (it holds no subdirectories).
    public func remove() {
        guard isTemporary, let stream = opendir(path) else { return }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(stream)
        for name in names { unlink(path + "/" + name) }
        rmdir(path)
    }
}
