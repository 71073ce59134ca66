import FairFuelEdges
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Paths that must name regular files: a FIFO, a directory or a device is refused at once,
/// without reading, and without blocking on a FIFO that has no writer.
@Suite struct RegularFileTests {
    static func scratch() throws -> String {
        let path = NSTemporaryDirectory() + "fairfuel-regular-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    @Test(.timeLimit(.minutes(1))) func aFIFOWithNoWriterIsRefusedAtOnce() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/ca.pem"
        try #require(mkfifo(fifo, 0o600) == 0)
        let started = Date()
        #expect(throws: FileError.notARegularFile(path: fifo, operation: "read", found: "a FIFO")) { try RegularFile.checkReadable(fifo) }
        guard case let .failure(error) = TextFileReader.readAll(path: fifo) else {
            Issue.record("a FIFO was read")
            return
        }
        #expect(error.description == "cannot read \(fifo): it is a FIFO, not a regular file")
        #expect(Date().timeIntervalSince(started) < 1, "neither blocked on the FIFO")
    }

    @Test func directoriesAndDevicesAreRefusedAndRegularFilesRead() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: FileError.notARegularFile(path: directory, operation: "read", found: "a directory")) {
            try RegularFile.checkReadable(directory)
        }
        #expect(throws: FileError.notARegularFile(path: "/dev/null", operation: "read", found: "a character device")) {
            try RegularFile.checkReadable("/dev/null")
        }
        #expect(throws: FileError(path: directory + "/none", operation: "open", errnoCode: ENOENT)) {
            try RegularFile.checkReadable(directory + "/none")
        }
        let file = directory + "/profile.toml"
        try "[uplink]\n".write(toFile: file, atomically: true, encoding: .utf8)
        try RegularFile.checkReadable(file)
        #expect(try TextFileReader.readAll(path: file).get() == Array("[uplink]\n".utf8))
        // A symbolic link to a regular file is that file.
        let link = directory + "/link.toml"
        try #require(symlink(file, link) == 0)
        #expect(try TextFileReader.readAll(path: link).get() == Array("[uplink]\n".utf8))
    }
}
