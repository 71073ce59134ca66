import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension IntegrationTests {
    /// `fairfuel record` on the sim's pseudo-terminal, stopped as its help promises: by SIGTERM or
    /// SIGINT, or by the port going away; the capture is flushed and complete either way.
    @Suite struct RecordCommandTests {
        @Test(arguments: [SIGTERM, SIGINT])
        func stopSignalEndsTheRecordingWithACompleteCapture(signal: Int32) throws {
            try IntegrationTests.withRig("drive.scenario") { rig in
                let sim = try rig.startSim(speed: IntegrationTests.speed, idleSpeed: IntegrationTests.idleSpeed)
                let out = rig.directory + "/link.ffcap"
                let record = try rig.spawn("record", ["record", "--port", rig.linkPath, "--out", out])
                try Self.waitForRxLines(rig, out)

                let (ending, seconds) = record.stop(with: signal)
                #expect(ending == .exited(0), "record ended with \(ending.map(\.description) ?? "nothing") after signal \(signal): \(record.standardError)")
                #expect(seconds < 2.0, "signal \(signal) took \(seconds) s")
                #expect(sim.isRunning, "the recorder stopped, not the MCU")

                let summary = try #require(RecordSummary(output: record.standardOutput), "no summary in: \(record.standardOutput)")
                #expect(summary.reason == "stopped")
                let capture = try Self.expectCompleteCapture(out, link: rig.linkPath, summary: summary)
                let decoded = try Self.decode(rig, out)
                print("record signal \(signal): exit after \(Int(seconds * 1000)) ms; \(summary.bytes) bytes in \(summary.reads) reads, "
                    + "\(decoded.frames) frames decoded of \(capture.delimiters) delimiters")
                #expect(decoded.frames > 0)
                Self.expectEveryFrameDecoded(decoded, capture)
            }
        }

        @Test func portGoingAwayEndsTheRecordingWithEverythingTheMCUSent() throws {
            try IntegrationTests.withRig("drive.scenario") { rig in
                let sim = try rig.startSim(speed: IntegrationTests.speed, idleSpeed: IntegrationTests.idleSpeed)
                let out = rig.directory + "/link.ffcap"
                let record = try rig.spawn("record", ["record", "--port", rig.linkPath, "--out", out])
                try Self.waitForRxLines(rig, out)

                // The MCU goes away: the sim closes its pseudo-terminal and removes the link.
                sim.send(SIGTERM)
                #expect(sim.wait(seconds: 5) == .exited(0))
                let simEnded = Date()
                let ending = record.wait(seconds: 5)
                let seconds = Date().timeIntervalSince(simEnded)
                #expect(ending == .exited(0), "record ended with \(ending.map(\.description) ?? "nothing") after the port went away: \(record.standardError)")
                #expect(seconds < 2.0, "record noticed the hang-up after \(seconds) s")

                let summary = try #require(RecordSummary(output: record.standardOutput), "no summary in: \(record.standardOutput)")
                #expect(summary.reason == "port disconnected")
                let capture = try Self.expectCompleteCapture(out, link: rig.linkPath, summary: summary)
                let decoded = try Self.decode(rig, out)
                // The sim says what it wrote to the pseudo-terminal. The capture is the start of that
                // stream without a gap (only frames the sim itself dropped are missing); it may lack the
                // sim's very last write, which the kernel discards when the master side closes before
                // the recorder has read it (a hang-up flushes the slave's input).
                let sent = try #require(SimSummary(output: sim.standardOutput), "no sim summary in: \(sim.standardOutput)")
                print("record hang-up: exit \(Int(seconds * 1000)) ms after the sim; \(summary.bytes) bytes in \(summary.reads) reads, "
                    + "\(decoded.frames) frames decoded; the sim sent \(sent.framesSent) frames, \(sent.bytesSent) bytes")
                #expect(decoded.frames > 0)
                Self.expectEveryFrameDecoded(decoded, capture)
                #expect(decoded.lost <= sent.framesDropped, "\(decoded.stats); the sim dropped \(sent.framesDropped)")
                #expect(summary.bytes <= sent.bytesSent, "recorded \(summary.bytes) bytes; the sim sent \(sent.bytesSent)")
                #expect(decoded.frames <= sent.framesSent - sent.framesDropped,
                        "decoded \(decoded.frames) frames; the sim sent \(sent.framesSent), dropped \(sent.framesDropped)")
            }
        }

        /// Waits until the recorder has flushed some reads (its buffer goes out every 500 ms).
        static func waitForRxLines(_ rig: IntegrationRig, _ path: String) throws {
            try rig.waitUntil("the capture holds 20 rx lines", seconds: 30) {
                let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
                return text.split(separator: "\n").filter { $0.contains(" rx ") }.count >= 20
            }
        }

        /// Reads the capture strictly: the header, the recorder's comment, then only whole
        /// `<t_ms> rx <hex>` lines in time order, the last one ending with a line feed; and the
        /// reads and bytes the recorder reported are the ones in the file (nothing left in a buffer).
        static func expectCompleteCapture(_ path: String, link: String, summary: RecordSummary) throws -> RecordedCapture {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.hasSuffix("\n"), "the last line is cut: \(text.suffix(80))")
            let capture = try RecordedCapture(text: text)
            #expect(capture.comment?.hasPrefix("recorded from \(link) ") == true, "\(capture.comment ?? "no comment")")
            #expect(capture.reads == summary.reads, "the file has \(capture.reads) rx lines; record said \(summary.reads) reads")
            #expect(capture.bytes == summary.bytes, "the file has \(capture.bytes) bytes; record said \(summary.bytes)")
            return capture
        }

        /// The link is clean (no noise in this scenario) and the sim starts when the port is
        /// opened: every 0x00 delimiter in the capture ends one whole frame, and only a frame cut
        /// by the stop may have no delimiter yet.
        static func expectEveryFrameDecoded(_ decoded: DecodedCapture, _ capture: RecordedCapture, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(decoded.linkErrors == 0, "\(decoded.stats)", sourceLocation: sourceLocation)
            #expect(decoded.frames + decoded.duplicates == capture.delimiters,
                    "decoded \(decoded.frames) frames and \(decoded.duplicates) duplicates of \(capture.delimiters) delimited: \(decoded.stats)",
                    sourceLocation: sourceLocation)
        }

        /// `fairfuel decode --json`: it must accept the file.
        static func decode(_ rig: IntegrationRig, _ path: String) throws -> DecodedCapture {
            let result = try rig.cli(["decode", path, "--json"])
            #expect(result.exitCode == 0, "decode: \(result.standardError)")
            return try DecodedCapture(output: result.standardOutput)
        }
    }
}

/// `recorded B bytes in R reads over D ms to FILE (REASON)`, the line `fairfuel record` ends with.
struct RecordSummary {
    var bytes: Int
    var reads: Int
    var reason: String

    init?(output: String) {
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("recorded ") }),
              let open = line.lastIndex(of: "("), line.hasSuffix(")")
        else { return nil }
        let words = line.split(separator: " ")
        guard words.count > 5, words[2] == "bytes", words[5] == "reads", let bytes = Int(words[1]), let reads = Int(words[4]) else { return nil }
        self.bytes = bytes
        self.reads = reads
        reason = String(line[line.index(after: open)..<line.index(before: line.endIndex)])
    }
}

/// A `.ffcap` file of rx lines, checked line by line.
struct RecordedCapture {
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    var comment: String?
    var reads = 0
    var bytes = 0
    /// The 0x00 bytes received: each ends a COBS frame.
    var delimiters = 0

    init(text: String) throws {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        guard lines.first == "# fairfuel capture v1" else { throw Malformed(description: "no header: \(lines.first ?? "")") }
        var lastTimeMs: UInt64 = 0
        for (index, line) in lines.enumerated().dropFirst() {
            if line.hasPrefix("# ") {
                guard index == 1 else { throw Malformed(description: "a comment after the data, line \(index + 1)") }
                comment = String(line.dropFirst(2))
                continue
            }
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count == 3, let timeMs = UInt64(fields[0]), fields[1] == "rx", !fields[2].isEmpty, fields[2].count % 2 == 0,
                  fields[2].allSatisfy({ $0.isHexDigit && !$0.isUppercase })
            else { throw Malformed(description: "line \(index + 1) is not '<t_ms> rx <hex>': \(line.prefix(80))") }
            guard timeMs >= lastTimeMs else { throw Malformed(description: "line \(index + 1) goes back in time") }
            lastTimeMs = timeMs
            reads += 1
            let hex = Array(fields[2].utf8)
            bytes += hex.count / 2
            delimiters += stride(from: 0, to: hex.count, by: 2).filter { hex[$0] == UInt8(ascii: "0") && hex[$0 + 1] == UInt8(ascii: "0") }.count
        }
    }
}

/// What `fairfuel decode --json` printed: one line per frame, then the receiver's counters.
struct DecodedCapture {
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    var frames: Int
    var stats: [String: Any]

    init(output: String) throws {
        let lines = output.split(separator: "\n")
        guard let last = lines.last, last.hasPrefix("{\"stats\":"),
              let object = try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any],
              let stats = object["stats"] as? [String: Any]
        else { throw Malformed(description: "no stats line at the end: \(output.suffix(200))") }
        self.stats = stats
        frames = lines.dropLast().filter { $0.hasPrefix("{") && !$0.contains("\"anomaly\"") }.count
    }

    var duplicates: Int { stats["duplicate"] as? Int ?? 0 }
    /// Frames missing by their sequence numbers.
    var lost: Int { stats["lost"] as? Int ?? 0 }
    var linkErrors: Int {
        ["cobs_error", "crc_error", "oversize", "bad_version", "unknown_type", "bad_payload"].reduce(0) { $0 + (stats[$1] as? Int ?? 0) }
    }
}
