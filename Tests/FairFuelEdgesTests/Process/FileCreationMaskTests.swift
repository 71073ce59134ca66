import FairFuelEdges
import Foundation
import Testing
import TestSupport

@Suite struct FileCreationMaskTests {
    /// The CLI's 0o027 takes writing from the group and everything from others, whatever mode a
    /// creator asks for; `set` hands back the mask it replaced.
    @Test func theMaskTakesItsBitsFromWhatTheProcessCreates() throws {
        let base = NSTemporaryDirectory() + "fairfuel-umask-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: base) }
        ProcessUmask.lock.lock()
        defer { ProcessUmask.lock.unlock() }
        let original = FileCreationMask.set(0o027)
        defer { FileCreationMask.set(original) }
        #expect(FileCreationMask.set(0o027) == 0o027)
        try FileOperations.makeDirectory(base + "/open", mode: 0o777)
        #expect(FileOperationsTests.mode(base + "/open") == 0o750)

        #expect(FileCreationMask.set(0o077) == 0o027)
        try FileOperations.makeDirectory(base + "/private", mode: 0o777)
        #expect(FileOperationsTests.mode(base + "/private") == 0o700)

        #expect(FileCreationMask.set(0) == 0o077)
        try FileOperations.makeDirectory(base + "/wide", mode: 0o777)
        #expect(FileOperationsTests.mode(base + "/wide") == 0o777)
    }
}
