import FairFuelCore
import FairFuelEdges
import FairFuelLink
import FairFuelSimulation
import FairFuelSimulationRunner
import Testing

/// `fairfuel record`'s library: the virtual MCU's output captured through a real serial open.
@Suite(.serialized) struct CaptureRecorderTests {
    struct Recording {
        var lines: [CaptureLine]
        var summary: CaptureRecorder.Summary
        var report: VirtualMCUReport
    }

    static func record(
        _ scenario: SimScenario, speed: Double, options: CaptureRecorder.Options, stopAfterMs: Int? = nil
    ) throws -> Recording {
        var mcuOptions = VirtualMCUOptions(speed: speed)
        mcuOptions.transmitBufferBytes = 1 << 20  // a slow (loaded) test machine must not make the MCU drop frames
        let mcu = try VirtualMCU(scenario: scenario, options: mcuOptions)
        let path = try mcu.start()
        let thread = mcu.runInBackground()
        let connection = try SerialOpener.open(path: path, baud: 115_200)
        let file = SimTestFiles.temporaryDirectory() + ".ffcap"
        defer { SimTestFiles.remove(file) }
        let writer = try CaptureFileWriter(path: file)
        let clock = ContinuousClock()
        let start = clock.now
        let summary = try CaptureRecorder.record(connection: connection, to: writer, options: options) {
            stopAfterMs.map { (clock.now - start).milliseconds >= Double($0) } ?? false
        }
        try writer.close()
        connection.close()
        mcu.stop()
        let report = try thread.join().get()
        return Recording(lines: try CaptureParser.parseAll(try SimTestFiles.read(file)), summary: summary, report: report)
    }

    @Test func theSimulatorsOutputDecodesWithoutAnError() throws {
        let recording = try Self.record(
            try SimFixture.shipped("short-drive.scenario"), speed: 80,
            options: CaptureRecorder.Options(seconds: 1.5, sendHelloRequest: true, comment: "test"))
        #expect(recording.summary.reason == .timeLimit)
        let lines = recording.lines
        #expect(lines.first?.direction == .tx)
        #expect(lines.first!.timeMs < 100)
        #expect(Array(lines.first!.bytes) == (try FrameEncoder.encode(.helloRequest(HelloRequest(hostMajor: 1, hostMinor: 0)), seq: 0)))
        #expect(lines.dropFirst().allSatisfy { $0.direction == .rx })
        #expect(lines.last!.timeMs <= 1700)
        #expect(recording.summary.bytes == lines.filter { $0.direction == .rx }.map(\.bytes.count).reduce(0, +))

        var decoder = FrameDecoder(sender: .mcu)
        var frames: [Frame] = []
        for line in lines where line.direction == .rx {
            decoder.decode(line.bytes) { output in
                if case .frame(let frame) = output { frames.append(frame) }
            }
        }
        #expect(decoder.counters.errorTotal == 0, "\(decoder.counters)")
        #expect(frames.count > 100)
        #expect(frames.first?.message.hello != nil)
        #expect(frames.contains { $0.message.ack == Ack(ackedSeq: 0, status: .ok) })
        #expect(frames.contains { $0.message.nfcTag != nil })
        #expect(frames.contains { $0.message.power?.ignitionOn == true })
        // Frames sent after the recorder stopped are not in the capture; none was dropped.
        #expect(frames.count <= recording.report.statistics.framesSent)
        #expect(recording.report.statistics.framesDropped == 0)
    }

    @Test func stopsWhenAsked() throws {
        let recording = try Self.record(
            try SimFixture.shipped("short-drive.scenario"), speed: 20, options: CaptureRecorder.Options(), stopAfterMs: 300)
        #expect(recording.summary.reason == .stopped)
        #expect(recording.summary.durationMs >= 300 && recording.summary.durationMs < 1000)
        #expect(recording.lines.allSatisfy { $0.direction == .rx })
        #expect(!recording.lines.isEmpty)
    }

    @Test func endsWhenTheMCUIsUnplugged() throws {
        let scenario = try SimFixture.inline(SimFixture.header + "08:00:05 unplug 30 s\n08:05 end\n")
        let recording = try Self.record(scenario, speed: 20, options: CaptureRecorder.Options(seconds: 5))
        #expect(recording.summary.reason == .disconnected)
        #expect(recording.summary.durationMs < 2000)
    }
}
