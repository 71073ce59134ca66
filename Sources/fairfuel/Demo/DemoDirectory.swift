import FairFuelEdges

/// The demo's working directory: a fresh temporary one (removed afterwards), or one the
/// user keeps with `--keep DIR`.
public struct DemoDirectory: Sendable {
    public let path: String
    /// Whether `remove()` deletes it.
    public let isTemporary: Bool

    /// A new directory under `$TMPDIR` (else /tmp).
    public static func temporary() throws(DemoError) -> DemoDirectory {
        let base = ProcessEnvironment.value("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        do {
            return DemoDirectory(path: try FileOperations.makeUniqueDirectory(prefix: base + "/fairfuel-demo-"), isTemporary: true)
        } catch {
            throw .directory(path: base, reason: error.reason)
        }
    }

    /// `path`, created when absent; refused when it already holds a store.
    public static func kept(_ path: String) throws(DemoError) -> DemoDirectory {
        do {
            try FileOperations.makeDirectory(path, mode: 0o755)
        } catch {
            throw .directory(path: path, reason: error.reason)
        }
        guard (try? FileOperations.kind(of: path)) == .directory else {
            throw .directory(path: path, reason: "not a directory")
        }
        guard !FileOperations.exists(path + "/fairfuel.db") else {
            throw .directory(path: path, reason: "it already holds a store (fairfuel.db); pick an empty directory")
        }
        return DemoDirectory(path: path, isTemporary: false)
    }

    /// Deletes a temporary directory and the files in it (it holds no subdirectories).
    public func remove() {
        guard isTemporary, let names = try? FileOperations.directoryEntries(path) else { return }
        for name in names { FileOperations.remove(path + "/" + name) }
        try? FileOperations.removeDirectory(path)
    }
}
