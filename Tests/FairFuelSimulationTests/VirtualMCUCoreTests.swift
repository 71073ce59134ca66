@testable import FairFuelSimulation
import FairFuelSimulationRunner
import FairFuelCore
import FairFuelLink
import FairFuelParsers
import Testing

/// The MCU model without a pseudo-terminal: simulated time in, frames out.
@Suite struct VirtualMCUCoreTests {
    struct Played {
        var frames: [(simMs: Int64, frame: Frame)] = []
        var counters = LinkCounters()
        var bytes: [UInt8] = []
    }

    /// Plays `plan` from the start to `untilMs` in one-minute steps and decodes what comes out.
    static func play(_ plan: SimPlan, untilMs: Int64, core: inout VirtualMCUCore) -> Played {
        var played = Played()
        var decoder = FrameDecoder(sender: .mcu)
        var outputs: [VirtualMCUCore.Output] = []
        var time = core.now
        while time < untilMs {
            time = min(untilMs, time + 60_000)
            core.advance(to: time, into: &outputs)
            for output in outputs {
                guard case .bytes(let bytes, _) = output else { continue }
                played.bytes += bytes
                decoder.decode(bytes) { result in
                    if case .frame(let frame) = result { played.frames.append((time, Frame(seq: frame.seq, message: frame.message))) }
                }
            }
            outputs.removeAll()
        }
        played.counters = decoder.counters
        return played
    }

    @Test func playingIsDeterministic() throws {
        let plan = try SimPlanner.plan(try SimFixture.shipped("reboot-and-noise.scenario"))
        var a = VirtualMCUCore(plan: plan)
        var b = VirtualMCUCore(plan: plan)
        let first = Self.play(plan, untilMs: 15 * 60_000, core: &a)
        let second = Self.play(plan, untilMs: 15 * 60_000, core: &b)
        #expect(first.bytes == second.bytes)
        #expect(first.bytes.count > 50_000)
        #expect(a.statistics == b.statistics)
    }

    @Test func theReceiverNeedsTimeForItsFirstFix() throws {
        let plan = try SimPlanner.plan(try SimFixture.shipped("short-drive.scenario"))
        var core = VirtualMCUCore(plan: plan)
        let played = Self.play(plan, untilMs: 4 * 60_000, core: &core)
        let sentences = played.frames.compactMap { item -> (UInt32, String)? in
            guard case .nmea(let report) = item.frame.message else { return nil }
            return (report.mcuTimeMs, report.sentenceText)
        }
        // The ignition goes on at 08:00:12 (uptime 72 000); output from half a second later,
        // no fix for the 3 s time to first fix, then fixes.
        let first = try #require(sentences.first)
        #expect(first.0 > 72_500 && first.0 < 74_000)
        #expect(first.1.contains("RMC,") && first.1.contains(",V,"))
        let firstFix = try #require(sentences.first { $0.1.contains("RMC,") && $0.1.contains(",A,") })
        #expect(firstFix.0 >= 75_000 && firstFix.0 < 76_500)
        var decoder = NMEADecoder()
        for (_, sentence) in sentences { #expect(decoder.decode(ArraySlice(sentence.utf8)) != nil, "\(sentence)") }
        #expect(played.counters.errorTotal == 0)
    }

    @Test func aDriversFobIsStrongInTheCarAndFadesAsTheyWalkAway() throws {
        let plan = try SimPlanner.plan(try SimFixture.shipped("short-drive.scenario"))
        var core = VirtualMCUCore(plan: plan)
        let played = Self.play(plan, untilMs: plan.endMs, core: &core)
        let trip = try #require(plan.trips.first)
        let uuid = UUID128("e2c56db5-dffb-48d2-b060-d0f5a71096e0")!.bytes
        let anna = played.frames.compactMap { item -> (Int64, Int8)? in
            guard case .bleAdvertisement(let ad) = item.frame.message,
                VirtualMCUProtocolTests.carries(uuid, ad)
            else { return nil }
            return (Int64(ad.mcuTimeMs), ad.rssiDBm)  // uptime equals simulated time in this scenario
        }
        let driving = anna.filter { $0.0 > trip.startMs && $0.0 < trip.endMs }.map { Int($0.1) }.sorted()
        #expect(driving.count > (Int(trip.endMs - trip.startMs) / 1000) * 8 / 10)
        let median = driving[driving.count / 2]
        #expect(median > -66 && median < -48, "median in the car \(median)")
        // 40 s after parking she is out of range for good.
        #expect(!anna.contains { $0.0 > trip.endMs + 60_000 })
        let leaving = anna.filter { $0.0 > trip.endMs + 20_000 }.map(\.1)
        #expect(leaving.allSatisfy { $0 < -70 })
    }

    @Test func familyWeekMondayMorning() throws {
        let plan = try SimPlanner.plan(try SimFixture.shipped("family-week.scenario"))
        let trip = try #require(plan.trips.first)
        var core = VirtualMCUCore(plan: plan)
        let played = Self.play(plan, untilMs: trip.endMs + 5 * 60_000, core: &core)
        #expect(played.counters.errorTotal == 0)
        // The tag, the ignition and the drive to the office, with the car parked there at the end.
        #expect(played.frames.contains { $0.frame.message.nfcTag.map { Array($0.uid) == [0x04, 0xA2, 0x2B, 0x7A, 0x3C, 0x5D, 0x80] } ?? false })
        let rmcs = played.frames.compactMap { item -> String? in
            guard case .nmea(let report) = item.frame.message, report.sentenceText.contains("RMC,"), report.sentenceText.contains(",A,") else { return nil }
            return report.sentenceText
        }
        var decoder = NMEADecoder()
        guard case .rmc(let last)? = decoder.decode(ArraySlice(rmcs.last!.utf8)) else {
            Issue.record("no RMC")
            return
        }
        let office = GeoPoint(latitude: 48.102_80, longitude: 11.615_30)
        #expect(LocalPlane.distance(GeoPoint(latitude: last.latitude!, longitude: last.longitude!), office) < 30)
        // Fobs on the key hook at home are heard faintly before the trip.
        let annaUUID = UUID128("e2c56db5-dffb-48d2-b060-d0f5a71096e0")!.bytes
        let early = played.frames.filter { $0.simMs < 60 * 60_000 }.compactMap { $0.frame.message.advertisement }
            .filter { VirtualMCUProtocolTests.carries(annaUUID, $0) && $0.data[$0.data.startIndex + 26] == 100 }  // major 100: Anna's, not the neighbour's
        #expect(early.count > 600)
        #expect(early.allSatisfy { $0.rssiDBm < -76 }, "\(early.map(\.rssiDBm).max() ?? 0)")
    }

    @Test func anNMEALogDriveIsResentAtTheScenariosRate() throws {
        let plan = try SimPlanner.plan(try SimFixture.shipped("nmea-log-drive.scenario"))
        let trip = try #require(plan.trips.first)
        #expect(abs(trip.distanceMeters - 7000) < 600)
        var core = VirtualMCUCore(plan: plan)
        let played = Self.play(plan, untilMs: trip.startMs + 5 * 60_000, core: &core)
        var decoder = NMEADecoder()
        var rmcTimes: [Int32] = []
        var vtg = 0
        for item in played.frames {
            guard case .nmea(let report) = item.frame.message else { continue }
            #expect(report.sentenceText.hasPrefix("$GN"))
            switch decoder.decode(report.sentence) {
            case .rmc(let rmc)?: if rmc.latitude != nil, let time = rmc.time { rmcTimes.append(time.milliseconds) }
            case .vtg?: vtg += 1
            case nil: Issue.record("undecodable \(report.sentenceText)")
            default: break
            }
        }
        #expect(rmcTimes.count > 500)
        #expect(zip(rmcTimes, rmcTimes.dropFirst()).allSatisfy { $1 - $0 == 500 })  // 2 Hz
        #expect(vtg >= rmcTimes.count)
    }

    @Test func lineNoiseHitsTheConfiguredShareOfBytes() {
        var injector = LineNoiseInjector(settings: LineNoiseSettings(byteErrorRate: 0.01), seed: 3)
        var hits = 0
        for _ in 0..<2000 {
            var frame = [UInt8](repeating: 0x55, count: 50)
            hits += injector.corrupt(&frame)
            #expect(frame.filter { $0 != 0x55 }.count <= 50)
        }
        #expect(hits > 800 && hits < 1200, "\(hits) of 100 000 bytes")
        var quiet = LineNoiseInjector(settings: LineNoiseSettings(), seed: 3)
        var frame = [UInt8](repeating: 1, count: 100)
        #expect(quiet.corrupt(&frame) == 0)
        #expect(quiet.nextBurstGap() == nil)
    }
}

@Suite(.serialized) struct VirtualMCUSpeedTests {
    @Test func quietStretchesRunAtTheIdleSpeed() throws {
        let scenario = try SimFixture.inline(SimFixture.header + "09:00 trip Anna urban 2 km\n09:20 end\n")
        var options = VirtualMCUOptions(speed: 20, idleSpeed: 40_000)
        options.transmitBufferBytes = 1 << 20
        let running = try SimFixture.Running(scenario, options: options, until: .simulatedMs(58 * 60_000))
        let clock = ContinuousClock()
        let start = clock.now
        while !running.thread.isFinished { running.host.pump(milliseconds: 20) }
        let elapsed = (clock.now - start).milliseconds
        let report = try running.thread.join().get()
        running.host.pump(milliseconds: 100)
        running.host.close()
        #expect(report.reason == .limit)
        #expect(elapsed < 3000, "58 simulated minutes took \(elapsed) ms")
        let beats = running.host.received.compactMap { $0.frame.message.heartbeat }
        #expect(beats.count >= 3470)  // every simulated second still has its heartbeat
        for (a, b) in zip(beats, beats.dropFirst()) { #expect(b.uptimeMs - a.uptimeMs == 1000) }
        #expect(report.statistics.framesDropped == 0)
    }
}
