import FairFuelEdges

/// The few file operations a pull needs, through the edges' `FileOperations`: atomic replace,
/// durable append, read; every error becomes a `PullClientError.file` naming the path.
enum PullFiles {
    static func makeDirectory(_ path: String) throws(PullClientError) {
        do { try FileOperations.makeDirectory(path) } catch { throw .file(error.description) }
    }

    /// Writes `text` to `path` through a temporary file and a rename, so a reader never sees half of it.
    static func replace(_ path: String, with text: String) throws(PullClientError) {
        let temporary = path + ".partial"
        do {
            try FileOperations.writeWhole(temporary, bytes: Array(text.utf8))
        } catch {
            throw .file("cannot write \(path): \(error)")
        }
        do { try FileOperations.rename(temporary, to: path) } catch { throw .file(error.description) }
    }

    /// Appends `text` and syncs it: the journal line of a finished trip must survive an unplug.
    static func appendDurably(_ path: String, _ text: String) throws(PullClientError) {
        do { try FileOperations.appendDurably(path, bytes: Array(text.utf8)) } catch { throw .file(error.description) }
    }

    /// Appends `text` without syncing it: a line worth losing in a power cut, written often.
    static func append(_ path: String, _ text: String) throws(PullClientError) {
        do { try FileOperations.append(path, bytes: Array(text.utf8), sync: false) } catch { throw .file(error.description) }
    }

    /// Removes `path` if it is there.
    static func remove(_ path: String) {
        FileOperations.remove(path)
    }

    /// The file's text, or nil when it does not exist.
    static func read(_ path: String) throws(PullClientError) -> String? {
        switch TextFileReader.readAll(path: path) {
        case let .success(bytes): return String(decoding: bytes, as: UTF8.self)
        case let .failure(error):
            if error.isNotFound { return nil }
            throw .file("cannot read \(path): \(error)")
        }
    }
}
