import FairFuelEdges
import Foundation
import Testing

/// The whole-file operations against the real file system, in a fresh directory per test.
@Suite struct FileOperationsTests {
    /// A new empty directory, removed with everything in it by `cleanUp`.
    static func scratch() throws -> String {
        let path = NSTemporaryDirectory() + "fairfuel-files-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    static func cleanUp(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

    static func mode(_ path: String) -> UInt32? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return UInt32(info.st_mode & 0o7777)
    }

    static func inode(_ path: String) -> UInt64? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return UInt64(info.st_ino)
    }

    @Test func aUniqueDirectoryIsNewEachTimeAndOnlyItsOwnerMayEnterIt() throws {
        let base = try Self.scratch()
        defer { Self.cleanUp(base) }
        let first = try FileOperations.makeUniqueDirectory(prefix: base + "/demo-")
        let second = try FileOperations.makeUniqueDirectory(prefix: base + "/demo-")
        #expect(first != second)
        for path in [first, second] {
            #expect(path.hasPrefix(base + "/demo-"))
            #expect(path.count == (base + "/demo-").count + 6)
            #expect(try FileOperations.kind(of: path) == .directory)
            // mkdtemp asks for 0700; no umask widens that.
            #expect(Self.mode(path) == 0o700, "\(String(Self.mode(path) ?? 0, radix: 8))")
        }
        #expect(Set(try FileOperations.directoryEntries(base)) == [String(first.dropFirst(base.count + 1)), String(second.dropFirst(base.count + 1))])
    }

    @Test func aUniqueDirectoryUnderAMissingParentIsAnErrorWithTheSystemsReason() {
        let error = #expect(throws: FileError.self) {
            _ = try FileOperations.makeUniqueDirectory(prefix: "/no/such/parent/demo-")
        }
        #expect(error?.isNotFound == true)
        #expect(error?.reason == "No such file or directory")
        #expect(error?.description == "cannot create a unique directory /no/such/parent/demo-XXXXXX: No such file or directory")
    }

    @Test func directoryEntriesNameEveryFileButNotDotAndDotDot() throws {
        let base = try Self.scratch()
        defer { Self.cleanUp(base) }
        #expect(try FileOperations.directoryEntries(base) == [])
        for name in ["a.db", "a.db-wal", "mcu", ".hidden"] { try FileOperations.writeWhole(base + "/" + name, bytes: [1]) }
        try FileOperations.makeDirectory(base + "/sub")
        #expect(Set(try FileOperations.directoryEntries(base)) == ["a.db", "a.db-wal", "mcu", ".hidden", "sub"])
        #expect(throws: FileError(path: base + "/missing", operation: "open the directory", errnoCode: ENOENT)) {
            try FileOperations.directoryEntries(base + "/missing")
        }
        #expect(throws: FileError(path: base + "/a.db", operation: "open the directory", errnoCode: ENOTDIR)) {
            try FileOperations.directoryEntries(base + "/a.db")
        }
    }

    @Test func removeDirectoryRemovesAnEmptyOneAndRefusesOneWithFiles() throws {
        let base = try Self.scratch()
        defer { Self.cleanUp(base) }
        let full = base + "/full"
        try FileOperations.makeDirectory(full)
        try FileOperations.writeWhole(full + "/store", bytes: [1, 2, 3])
        let notEmpty = #expect(throws: FileError.self) { try FileOperations.removeDirectory(full) }
        #expect(notEmpty?.description == "cannot remove the directory \(full): Directory not empty")
        #expect(FileOperations.exists(full + "/store"))
        #expect(FileOperations.remove(full + "/store"))
        try FileOperations.removeDirectory(full)
        #expect(!FileOperations.exists(full))
        #expect(throws: FileError(path: full, operation: "remove the directory", errnoCode: ENOENT)) {
            try FileOperations.removeDirectory(full)
        }
    }

    @Test func kindTellsFilesFromDirectoriesAndDevicesFollowingLinks() throws {
        let base = try Self.scratch()
        defer { Self.cleanUp(base) }
        try FileOperations.writeWhole(base + "/file", bytes: Array("text".utf8))
        try FileManager.default.createSymbolicLink(atPath: base + "/link-to-dir", withDestinationPath: base)
        try FileManager.default.createSymbolicLink(atPath: base + "/dangling", withDestinationPath: base + "/gone")
        #expect(try FileOperations.kind(of: base + "/file") == .regularFile)
        #expect(try FileOperations.kind(of: base) == .directory)
        #expect(try FileOperations.kind(of: base + "/link-to-dir") == .directory)
        #expect(try FileOperations.kind(of: "/dev/null") == .other)
        #expect(throws: FileError(path: base + "/dangling", operation: "stat", errnoCode: ENOENT)) {
            try FileOperations.kind(of: base + "/dangling")
        }
        let belowAFile = #expect(throws: FileError.self) { try FileOperations.kind(of: base + "/file/below") }
        #expect(belowAFile?.reason == "Not a directory")
    }

    @Test func existsAndIsReadableAskTheSystemNotTheName() throws {
        let base = try Self.scratch()
        defer { Self.cleanUp(base) }
        let secret = base + "/secret"
        try FileOperations.writeWhole(secret, bytes: [1])
        #expect(FileOperations.exists(secret))
        #expect(FileOperations.isReadable(secret))
        #expect(!FileOperations.exists(base + "/missing"))
        #expect(!FileOperations.isReadable(base + "/missing"))
        #expect(chmod(secret, 0) == 0)
        #expect(FileOperations.exists(secret))
        // access(2) lets root read anything; everyone else is refused a mode-0 file.
        #expect(FileOperations.isReadable(secret) == (getuid() == 0))
    }

    @Test func writeWholeCreatesAnOwnerOnlyFileAndTightensAnExistingOne() throws {
        let base = try Self.scratch()
        defer { Self.cleanUp(base) }
        try FileOperations.writeWhole(base + "/new", bytes: Array("one".utf8))
        #expect(Self.mode(base + "/new") == 0o600)
        #expect(FileManager.default.contents(atPath: base + "/new") == Data("one".utf8))
        #expect(FileManager.default.createFile(atPath: base + "/old", contents: Data("a longer old text".utf8), attributes: [.posixPermissions: 0o644]))
        try FileOperations.writeWhole(base + "/old", bytes: Array("two".utf8))
        #expect(Self.mode(base + "/old") == 0o600)
        #expect(FileManager.default.contents(atPath: base + "/old") == Data("two".utf8))
    }

    @Test func renameReplacesTheDestinationAtomicallyByTheSourcesInode() throws {
        let base = try Self.scratch()
        defer { Self.cleanUp(base) }
        try FileOperations.writeWhole(base + "/bundle.toml", bytes: Array("old".utf8))
        try FileOperations.writeWhole(base + "/bundle.toml.tmp", bytes: Array("new".utf8))
        let sourceInode = try #require(Self.inode(base + "/bundle.toml.tmp"))
        #expect(Self.inode(base + "/bundle.toml") != sourceInode)
        try FileOperations.rename(base + "/bundle.toml.tmp", to: base + "/bundle.toml")
        // The same file under the new name, not a copy: a reader sees the old file or the new, never half.
        #expect(Self.inode(base + "/bundle.toml") == sourceInode)
        #expect(FileManager.default.contents(atPath: base + "/bundle.toml") == Data("new".utf8))
        #expect(!FileOperations.exists(base + "/bundle.toml.tmp"))
        #expect(throws: FileError(path: base + "/x", operation: "rename \(base)/bundle.toml.tmp to", errnoCode: ENOENT)) {
            try FileOperations.rename(base + "/bundle.toml.tmp", to: base + "/x")
        }
        let intoNowhere = #expect(throws: FileError.self) { try FileOperations.rename(base + "/bundle.toml", to: base + "/no/such/dir/x") }
        #expect(intoNowhere?.description == "cannot rename \(base)/bundle.toml to \(base)/no/such/dir/x: No such file or directory")
        #expect(FileOperations.exists(base + "/bundle.toml"))
    }
}
