import FairFuelEdges
import FairFuelStore

/// The store a command created at a new path, removed when the command fails so that a
/// mistyped `--db` or a refused argument leaves nothing behind.
enum FreshStore {
    nonisolated(unsafe) private static var path: String?

    static func created(_ path: String) { Self.path = path }

    /// Deletes the database, its WAL, shared memory and reserve when this process created them.
    static func removeAfterFailure() {
        guard let path else { return }
        let files = StoreFiles(path: path)
        for file in [files.walPath, files.sharedMemoryPath, files.reservePath, path + "-journal", path] { FileOperations.remove(file) }
        Self.path = nil
    }
}
