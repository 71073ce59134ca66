import FairFuelReports
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension IntegrationTests {
    /// Corrupted bytes on the line: sessions still right, and the service's receiver counters
    /// agree with what the sim says it sent and corrupted.
    @Suite struct LineNoiseTests {
        /// What both ends counted once the sim has played the whole scenario.
        struct Tally {
            var sim: SimSummary
            var host: ServiceStatus
            var trips: [TripRow]
        }

        static func play(_ rig: IntegrationRig) throws -> Tally {
            let sim = try rig.startSim(speed: IntegrationTests.speed, idleSpeed: IntegrationTests.idleSpeed, extra: ["--quiet"])
            let run = try rig.startRun()
            try rig.waitUntil("the sim reaches the scenario's end", seconds: IntegrationTests.patience) { !sim.isRunning }
            #expect(sim.poll() == .exited(0))
            let summary = try #require(SimSummary(output: sim.standardOutput), "no summary in:\n\(sim.standardOutput)")
            #expect(summary.reason == "scenarioEnd")
            // The service has read the last bytes once it has seen the hang-up.
            try rig.waitUntil("the service sees the sim hang up", seconds: 30) { rig.status()?.reconnects ?? 0 >= 1 }
            let host = try #require(rig.status())
            print("\(rig.plan.scenario.title): sim \(summary); host \(host.json)")
            try LinkFaultTests.finish(rig, run)
            let trips = try rig.trips()
            print("\(rig.plan.scenario.title): trips \(trips.map { "\($0.driver ?? "nobody") \($0.distanceKilometers) km \($0.endReason ?? "open")" })")
            return Tally(sim: summary, host: host, trips: trips)
        }

        @Test func oneFrameInTenCorruptedSessionStillRightCountersMatch() throws {
            try IntegrationTests.withRig("noisy-frames.scenario") { rig in
                let tally = try Self.play(rig)
                let sent = tally.sim.framesSent
                let corrupted = tally.sim.framesCorrupted
                let delivered = tally.host.frames("frames")
                let errors = tally.host.linkErrors
                let lost = tally.host.frames("lost")
                let share = Double(corrupted) / Double(max(1, sent))
                #expect(share > 0.06 && share < 0.14, "the sim corrupted \(corrupted) of \(sent) frames")
                #expect(tally.host.frames("crc_error") > 0)
                // A corrupted frame is never delivered (CRC-16 catches every 1- and 2-bit error);
                // one whose delimiter was hit takes the next frame with it. Frames the MCU had to drop
                // (a host too busy to read, on a loaded machine) are counted as sent, then lost.
                let dropped = tally.sim.framesDropped
                #expect(delivered <= sent - corrupted, "delivered \(delivered), sent \(sent), corrupted \(corrupted)")
                #expect(delivered >= sent - corrupted - dropped - corrupted / 8 - 5,
                        "delivered \(delivered), sent \(sent), corrupted \(corrupted), dropped \(dropped)")
                // Each corrupted frame is one receiver error (a bit flipped to 0x00 makes two).
                #expect(errors >= corrupted * 8 / 10 && errors <= corrupted * 13 / 10 + 5, "errors \(errors), corrupted \(corrupted): \(tally.host.json)")
                // Sequence gaps account for the frames that did not arrive.
                #expect(abs(delivered + lost - sent) <= sent / 50 + 5, "delivered \(delivered) + lost \(lost) vs sent \(sent)")
                #expect(tally.host.frames("duplicate") == 0)

                #expect(tally.trips.count == 1, "\(tally.trips.map(\.json))")
                let trip = try #require(tally.trips.first)
                #expect(trip.driver == "Anna")
                #expect(trip.endReason == "departed", "ended by the rules, not by the test: \(trip.json)")
                LinkFaultTests.expectDistance(trip, plannedMeters: rig.plan.trips[0].distanceMeters, tolerance: 0.10)
            }
        }

        @Test func tenPercentOfBytesForAMinuteIsCountedAndInventsNothing() throws {
            try IntegrationTests.withRig("noisy-bytes.scenario") { rig in
                let tally = try Self.play(rig)
                let sent = tally.sim.framesSent
                let corrupted = tally.sim.framesCorrupted
                let delivered = tally.host.frames("frames")
                let lost = tally.host.frames("lost")
                #expect(corrupted > 100, "a minute at 10 % hits hundreds of frames: \(corrupted)")
                #expect(tally.host.linkErrors > 0 && tally.host.linkErrors <= 2 * corrupted, "\(tally.host.json)")
                #expect(delivered <= sent - corrupted, "delivered \(delivered), sent \(sent), corrupted \(corrupted)")
                #expect(abs(delivered + lost - sent) <= sent / 50 + 10, "delivered \(delivered) + lost \(lost) vs sent \(sent)")
                #expect(tally.host.frames("duplicate") == 0)
                // The event log has the noise as a summary a minute at most, adding up to the counters.
                let summaries = try rig.openStore().events(kind: "link_errors")
                #expect(!summaries.isEmpty && summaries.count <= 4, "a minute of noise: \(summaries.map(\.detail))")
                let framing = ["cobs_error", "crc_error", "oversize", "bad_version", "unknown_type", "bad_payload"]
                let summed = summaries.flatMap { $0.detail.split(separator: ",") }.reduce(0) { sum, part in
                    let fields = part.split(separator: " ")
                    guard fields.count == 2, framing.contains(String(fields[0])), let count = Int(fields[1]) else { return sum }
                    return sum + count
                }
                #expect(summed == tally.host.linkErrors, "\(summaries.map(\.detail)) vs \(tally.host.json)")

                // One session, Anna's: the noise neither ended it nor made up a tap or a driver.
                #expect(tally.trips.count == 1, "\(tally.trips.map(\.json))")
                let trip = try #require(tally.trips.first)
                #expect(trip.driver == "Anna")
                #expect(trip.endReason == "departed", "ended by the rules, not by the test: \(trip.json)")
                // A minute without fixes: the straight line across the gap may cut a corner.
                let planned = rig.plan.trips[0].distanceMeters / 1000
                #expect(trip.distanceKilometers > planned * 0.8 && trip.distanceKilometers < planned * 1.05,
                        "trip \(trip.distanceKilometers) km, planned \(planned) km")
            }
        }
    
        /// The shipped reboot-and-noise day at 1 % byte errors or worse throughout, with an MCU
        /// reboot and a 20 s unplug: revision 1.1's reliable events bring every tap through
        /// (repeated until the service's EVENT_ACK), so each trip belongs to the driver who tapped.
        @Test func everyTapSurvivesOnePercentLineNoise() throws {
            try IntegrationTests.withRig("reboot-and-noise-1pct.scenario") { rig in
                let sim = try rig.startSim(speed: IntegrationTests.speed, idleSpeed: IntegrationTests.idleSpeed, extra: ["--quiet"])
                let run = try rig.startRun()
                try rig.waitUntil("the sim reaches the scenario's end", seconds: IntegrationTests.patience) { !sim.isRunning }
                #expect(sim.poll() == .exited(0))
                let summary = try #require(SimSummary(output: sim.standardOutput), "no summary in:\n\(sim.standardOutput)")
                // The unplug and the sim's exit.
                try rig.waitUntil("the service sees the sim hang up", seconds: 30) { rig.status()?.reconnects ?? 0 >= 2 }
                let host = try #require(rig.status())
                print("\(rig.plan.scenario.title): sim \(summary); host \(host.json)")
                #expect(summary.framesCorrupted * 5 > summary.framesSent, "the line corrupted \(summary.framesCorrupted) of \(summary.framesSent) frames")
                #expect(host.frames("crc_error") > 0)
                try LinkFaultTests.finish(rig, run)

                let trips = try rig.trips()
                print("\(rig.plan.scenario.title): trips \(trips.map { "\($0.driver ?? "nobody") \($0.distanceKilometers) km \($0.endReason ?? "open")" })")
                let planned = rig.plan.trips.compactMap { $0.tapped ? $0.drivers.first : nil }
                #expect(planned == ["Anna", "Ben"])
                #expect(trips.map { $0.driver ?? "nobody" } == planned, "\(trips.map(\.json))")
                for (trip, plan) in zip(trips, rig.plan.trips) {
                    LinkFaultTests.expectDistance(trip, plannedMeters: plan.distanceMeters, tolerance: 0.15)
                }
            }
        }
    }
}