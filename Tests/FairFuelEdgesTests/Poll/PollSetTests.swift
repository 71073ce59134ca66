import FairFuelEdges
import Glibc
import Testing

@Suite struct PollSetTests {
    /// A pipe: (read end, write end), closed by the caller.
    private func makePipe() throws -> (Int32, Int32) {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        return (ends[0], ends[1])
    }

    @Test func reportsWhatIsReadyAndNothingForTheRest() throws {
        let (readEnd, writeEnd) = try makePipe()
        let (idleRead, idleWrite) = try makePipe()
        defer { for fd in [readEnd, writeEnd, idleRead, idleWrite] { close(fd) } }
        #expect(write(writeEnd, "x", 1) == 1)

        var set = PollSet()
        set.add(readEnd)
        set.add(idleRead)
        set.add(writeEnd, writable: true)
        set.wait(timeoutMs: 1000)
        #expect(set.readiness(of: readEnd) == PollReadiness(readable: true, writable: false))
        #expect(set.isReady(readEnd))
        #expect(set.readiness(of: idleRead) == .none)
        #expect(!set.isReady(idleRead))
        #expect(set.readiness(of: writeEnd).writable, "a pipe with room is writable")
        #expect(set.readiness(of: 12345) == .none, "a descriptor not in the set")
    }

    @Test func aHangUpReadsAsReadable() throws {
        let (readEnd, writeEnd) = try makePipe()
        defer { close(readEnd) }
        close(writeEnd)
        var set = PollSet()
        set.add(readEnd)
        set.wait(timeoutMs: 1000)
        #expect(set.readiness(of: readEnd).readable, "the reader finds the end of file")
    }

    @Test func aTimeoutIsNothingReadyAndTheSetIsRebuiltEachTurn() throws {
        let (readEnd, writeEnd) = try makePipe()
        defer { close(readEnd); close(writeEnd) }
        var set = PollSet(capacity: 2)
        set.add(readEnd)
        set.wait(timeoutMs: 0)
        #expect(set.readiness(of: readEnd) == .none)

        #expect(write(writeEnd, "y", 1) == 1)
        set.removeAll()
        set.wait(timeoutMs: -5)  // empty: returns at once
        #expect(!set.isReady(readEnd), "a removed descriptor is not reported")
        set.add(readEnd)
        set.wait(timeoutMs: 1000)
        #expect(set.isReady(readEnd))
    }
}
