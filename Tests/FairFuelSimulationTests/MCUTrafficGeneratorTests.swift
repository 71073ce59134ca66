import FairFuelCore
import FairFuelLink
import FairFuelSimulation
import Testing

/// The one generator of MCU traffic: what it frames decodes back to what was sent, reads are
/// cut at the chunk size and the host's poll boundaries, and a reboot restarts the sequence.
@Suite struct MCUTrafficGeneratorTests {
    @Test func readsAreCutAtTheChunkSizeAndThePollBoundaries() {
        var generator = MCUTrafficGenerator(readChunkBytes: 16, pollIntervalMs: 5)
        var reads: [(UInt64, [UInt8])] = []
        let collect: MCUTrafficGenerator.ReadHandler = { reads.append(($0, Array($1))) }
        generator.send(generator.hello(uptimeMs: 250), at: 0, collect)
        generator.send(MCUTrafficGenerator.heartbeat(uptimeMs: 1_250, supplyMillivolts: 12_600, ignitionOn: false), at: 4, collect)
        generator.send(MCUTrafficGenerator.nmea(uptimeMs: 1_300, "$GPGSA,A,1,,,,,,,,,,,,,99.9,99.9,99.9*09"), at: 12, collect)
        generator.flush(collect)

        #expect(generator.isDrained)
        #expect(reads.allSatisfy { $0.1.count <= 16 })
        #expect(Set(reads.map(\.0)) == [0, 10])  // 0 and 4 ms share the first poll
        #expect(generator.statistics.frames == 3)
        #expect(generator.statistics.reads == reads.count)
        #expect(generator.statistics.bytes == reads.reduce(0) { $0 + $1.1.count })

        var decoder = FrameDecoder(sender: .mcu)
        var seqs: [UInt16] = []
        var names: [String] = []
        for (_, bytes) in reads {
            decoder.decode(bytes) { output in
                guard case let .frame(frame) = output else { return }
                seqs.append(frame.seq)
                names.append(frame.message.jsonName)
            }
        }
        #expect(decoder.counters.errorTotal == 0)
        #expect(seqs == [0, 1, 2])
        #expect(names == ["hello", "heartbeat", "nmea"])
    }

    @Test func helloSaysTheIdentityAndARebootRestartsTheSequence() throws {
        var identity = MCUSettings()
        identity.name = "Bench MCU"
        var generator = MCUTrafficGenerator(identity: identity)
        let hello = generator.hello(uptimeMs: 1)
        #expect(generator.frame(hello) != nil)
        #expect(generator.frame(MCUTrafficGenerator.tag(uptimeMs: 2, uid: [0x04, 0x11, 0x22, 0x33])) != nil)
        generator.restart()
        let helloAgain = generator.hello(uptimeMs: 3)
        let afterReboot = generator.frame(helloAgain) ?? []

        var decoder = FrameDecoder(sender: .mcu)
        var frames: [Frame] = []
        decoder.decode(afterReboot) { if case let .frame(frame) = $0 { frames.append(frame) } }
        let frame = try #require(frames.first)
        #expect(frame.seq == 0)
        guard case let .hello(hello) = frame.message else {
            Issue.record("expected a HELLO, got \(frame.message)")
            return
        }
        #expect(hello.name == "Bench MCU")
        #expect(hello.uptimeMs == 3)
        #expect(generator.statistics.frames == 3)
    }
}
