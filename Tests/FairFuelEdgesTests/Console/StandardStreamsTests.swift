import FairFuelEdges
import Foundation
import Testing

/// The CLI's standard streams, checked on streams of the test's own: a pipe, /dev/full and a
/// pseudo-terminal. Serialized: one test leaves a stream that fails to flush until it is closed.
@Suite(.serialized) struct StandardStreamsTests {
    @Test func flushPushesWhatStdioBufferedIntoThePipe() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        let stream = try #require(fdopen(ends[1], "w"))
        defer { fclose(stream) }
        #expect(fputs("demo: a line\n", stream) >= 0)
        var buffer = [UInt8](repeating: 0, count: 64)
        // A pipe is fully buffered: nothing has reached it yet.
        #expect(read(ends[0], &buffer, buffer.count) == -1)
        try StandardStreams.flush()
        let count = read(ends[0], &buffer, buffer.count)
        #expect(count == 13)
        #expect(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self) == "demo: a line\n")
    }

    @Test func aStreamThatCannotBeWrittenIsAnErrorWithTheSystemsReason() throws {
        let stream = try #require(fopen("/dev/full", "w"))
        // Closed (its error and its buffer gone) before any other flush can see it.
        defer { fclose(stream) }
        #expect(fputs("more than the device takes\n", stream) >= 0)
        let error = #expect(throws: FileError.self) { try StandardStreams.flush() }
        #expect(error?.description == "cannot flush buffered output: No space left on device")
    }

    @Test func onlyATerminalIsATerminal() throws {
        let terminal = try PseudoTerminal()
        let device = open(terminal.devicePath, O_RDWR | O_NOCTTY)
        #expect(device >= 0)
        defer { close(device) }
        #expect(StandardStreams.isTerminal(device))
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        #expect(!StandardStreams.isTerminal(ends[1]))
        let file = open("/dev/null", O_WRONLY)
        defer { close(file) }
        #expect(!StandardStreams.isTerminal(file))
        #expect(!StandardStreams.isTerminal(-1))
    }
}
