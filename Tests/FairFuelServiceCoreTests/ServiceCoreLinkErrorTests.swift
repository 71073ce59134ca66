import FairFuelCore
import FairFuelLink
import FairFuelServiceCore
import Testing

/// Line noise reaches the store's event log as a bounded summary: the error counts since the
/// last one, at once after a quiet spell, then at most once a minute, never for a quiet minute,
/// and what is left at the stop; their sum is what the receiver counted.
@Suite struct ServiceCoreLinkErrorTests {
    static func heartbeat(_ encoder: inout FrameEncoder, ms: Int64) throws -> [UInt8] {
        try encoder.encode(.heartbeat(Heartbeat(uptimeMs: UInt32(ms), mcuDropped: 0, supplyMillivolts: 12_000, flags: 1)))
    }

    @Test func noiseIsSummarisedAtMostOnceAMinuteAndAddsUpToTheCounters() throws {
        let bench = try ServiceCoreTests.Bench()
        bench.open()
        var encoder = FrameEncoder()
        let hello = try encoder.encode(.hello(Hello(
            firmwareMajor: 1, firmwareMinor: 2, firmwarePatch: 0, boardID: 2, capabilities: [.nfcReader, .bleScanner, .gnss],
            uptimeMs: 10, name: "bench")))
        bench.core.received(hello[...], at: LinkMilliseconds(10)) { bench.perform($0) }
        for second in Int64(1)...300 {
            let ms = second * 1_000
            var wire = try Self.heartbeat(&encoder, ms: ms)
            // Every frame of the second minute is hit, and three at 4:00; a hit byte never becomes a delimiter.
            if (60..<120).contains(second) || (240..<243).contains(second) {
                wire[4] = wire[4] ^ 0x80 == 0 ? wire[4] ^ 0x40 : wire[4] ^ 0x80
            }
            bench.core.received(wire[...], at: LinkMilliseconds(ms)) { bench.perform($0) }
            bench.pass(to: ms + 500)
        }
        let beforeStop = bench.linkErrorSummaries.count
        bench.core.finish(at: LinkMilliseconds(301_000)) { bench.perform($0) }
        let summaries = bench.linkErrorSummaries
        let counted = bench.core.linkCounters
        #expect(counted.crcError + counted.cobsError >= 63, "the noise was not seen: \(counted)")
        #expect(summaries.reduce(0) { $0 + $1.counts.errorTotal } == counted.errorTotal, "\(summaries.map(\.counts))")
        #expect(summaries.reduce(0) { $0 + $1.counts.crcError } == counted.crcError)
        #expect(summaries.allSatisfy { $0.counts.frames == 0 && $0.counts.errorTotal > 0 })
        // At once after quiet: the first hit frame (1:00 host time, about 1.5 s earlier in the
        // MCU's clock, which link time follows) is summarised within a tick.
        #expect(summaries.contains { (58_000...61_600).contains($0.at.value) }, "\(summaries.map(\.at.value))")
        // At most one a minute while the stop does not force one.
        let spaced = summaries.prefix(beforeStop)
        for (earlier, later) in zip(spaced, spaced.dropFirst()) {
            #expect(later.at.value - earlier.at.value >= 59_000, "\(summaries.map(\.at.value))")
        }
        // Nothing for the quiet minutes between the two bursts (the frames lost in the first are counted by 2:01).
        #expect(!summaries.contains { (125_000..<237_000).contains($0.at.value) }, "\(summaries.map(\.at.value))")
        #expect(summaries.count <= 5)
    }
}
