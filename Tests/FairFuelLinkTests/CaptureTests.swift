import FairFuelCore
import FairFuelLink
import Testing
import TestSupport

@Suite struct CaptureTests {
    @Test func parsesLinesCommentsAndBlankLines() throws {
        let text = """
            # fairfuel capture v1
            # a comment

            0 rx 0401
            5 tx ABCD\r
              7   rx   02ff  \t
            """
        let lines = try CaptureParser.parseAll(text)
        #expect(lines == [
            CaptureLine(timeMs: 0, direction: .rx, bytes: [0x04, 0x01]),
            CaptureLine(timeMs: 5, direction: .tx, bytes: [0xAB, 0xCD]),
            CaptureLine(timeMs: 7, direction: .rx, bytes: [0x02, 0xFF]),
        ])
    }

    struct BadCapture: Sendable, CustomStringConvertible {
        var text: String
        var error: CaptureError
        var description: String { error.description }
    }

    static let bad: [BadCapture] = [
        BadCapture(text: "", error: .emptyCapture),
        BadCapture(text: "\n\n", error: .emptyCapture),
        BadCapture(text: "0 rx 00\n", error: .missingHeader(line: 1)),
        BadCapture(text: "$GPRMC,1,2\n", error: .missingHeader(line: 1)),
        BadCapture(text: "# fairfuel capture v2\n", error: .unsupportedVersion(line: 1, header: "# fairfuel capture v2")),
        BadCapture(text: "# fairfuel capture v1\n0 rx\n", error: .malformedLine(line: 2, reason: "expected '<t_ms> <rx|tx> <hex>', found 2 field(s)")),
        BadCapture(text: "# fairfuel capture v1\n0 rx 00 11\n", error: .malformedLine(line: 2, reason: "expected '<t_ms> <rx|tx> <hex>', found 4 field(s)")),
        BadCapture(text: "# fairfuel capture v1\n-1 rx 00\n", error: .malformedLine(line: 2, reason: "time '-1' is not a decimal number of milliseconds")),
        BadCapture(text: "# fairfuel capture v1\n1.5 rx 00\n", error: .malformedLine(line: 2, reason: "time '1.5' is not a decimal number of milliseconds")),
        BadCapture(text: "# fairfuel capture v1\n99999999999999999999 rx 00\n", error: .malformedLine(line: 2, reason: "time '99999999999999999999' is not a decimal number of milliseconds")),
        BadCapture(text: "# fairfuel capture v1\n9007199254740993 rx 00\n", error: .malformedLine(line: 2, reason: "time '9007199254740993' ms is beyond the latest a capture can hold (9007199254740992)")),
        BadCapture(text: "# fairfuel capture v1\n9223372036854775808 rx 00\n", error: .malformedLine(line: 2, reason: "time '9223372036854775808' ms is beyond the latest a capture can hold (9007199254740992)")),
        BadCapture(text: "# fairfuel capture v1\n0 up 00\n", error: .malformedLine(line: 2, reason: "direction 'up' is neither rx nor tx")),
        BadCapture(text: "# fairfuel capture v1\n0 rx 0\n", error: .malformedLine(line: 2, reason: "odd number of hex digits (1)")),
        BadCapture(text: "# fairfuel capture v1\n0 rx zz\n", error: .malformedLine(line: 2, reason: "bytes are not hex")),
        BadCapture(text: "# fairfuel capture v1\n0 rx 00:1\n", error: .malformedLine(line: 2, reason: "bytes are not hex")),
        BadCapture(text: "# fairfuel capture v1\n10 rx 00\n\n9 rx 00\n", error: .timeWentBackwards(line: 4, previousMs: 10, timeMs: 9)),
    ]

    @Test(arguments: bad)
    func malformedCapturesNameTheLine(bad: BadCapture) {
        #expect(throws: bad.error) { try CaptureParser.parseAll(bad.text) }
        if let line = bad.error.line { #expect(bad.error.description.hasPrefix("line \(line):")) }
    }

    @Test func writerOutputReadsBack() throws {
        var generator = SeededGenerator(seed: 5)
        var text = CaptureFormat.header + "\n"
        var written: [CaptureLine] = []
        var time: UInt64 = 0
        for _ in 0..<100 {
            time += UInt64.random(in: 0...50, using: &generator)
            let bytes = generator.bytes(Int.random(in: 1...300, using: &generator))
            let direction: CaptureDirection = Bool.random(using: &generator) ? .rx : .tx
            text += CaptureFormat.line(timeMs: time, direction: direction, bytes: bytes) + "\n"
            written.append(CaptureLine(timeMs: time, direction: direction, bytes: bytes[...]))
        }
        #expect(try CaptureParser.parseAll(text) == written)
    }
}
