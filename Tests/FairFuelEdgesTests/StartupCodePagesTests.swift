import FairFuelEdges
import Glibc
import Testing

@Suite struct StartupCodePagesTests {
    /// Resident file-backed kB of this process, from /proc/self/status.
    private func residentFileKiB() -> Int? {
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix("RssFile:") {
                return Int(text.dropFirst(8).filter { $0.isNumber })
            }
        }
        return nil
    }

    @Test func releasesTheExecutablesCodePagesAndCodeStillRuns() throws {
        let before = try #require(residentFileKiB())
        let released = StartupCodePages.release()
        let after = try #require(residentFileKiB())
        // The test bundle's code is many MB and mapped r-xp: it was found and dropped.
        #expect(released > 1 << 20)
        #expect(after < before, "RssFile \(before) kB -> \(after) kB")
        // Code faults back in from the file: a second call and ordinary work still run.
        #expect(StartupCodePages.release() == released)
        #expect([3, 1, 2].sorted() == [1, 2, 3])
    }
}
