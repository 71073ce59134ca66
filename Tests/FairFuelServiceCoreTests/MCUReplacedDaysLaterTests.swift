import FairFuelCore
import FairFuelDomain
import FairFuelLink
import FairFuelServiceCore
import Testing
import TestSupport

/// The MCU dies mid-trip and, while the service runs, another comes up on the same link whose
/// receiver's UTC is three days on (`kill -9` of a virtual MCU, another started with a later
/// scenario): the open trip ends at its last fix, as measured, not three days later.
@Suite struct MCUReplacedDaysLaterTests {
    static let fixtures = PackagePaths.root + "/Tests/FairFuelServiceCoreTests/Fixtures/"

    /// UTC of link time as the shell's recorder stamps it: the offset of the last `utcAnchored`
    /// before the output, none after `utcUnknown`.
    static func stamped(_ outputs: [DomainOutput]) -> [(output: DomainOutput, offsetMs: Int64?)] {
        var offset: Int64?
        return outputs.map { output in
            switch output {
            case let .utcAnchored(offsetMs, _): offset = offsetMs
            case .utcUnknown: offset = nil
            default: break
            }
            return (output, offset)
        }
    }

    @Test func theOpenTripEndsAtItsLastFixAndTheNextDriveIsJudgedAfresh() throws {
        var rig = try CoreRig(scenario: Self.fixtures + "mcu-monday.scenario")
        // Mid-trip: Anna has been driving for a few minutes.
        rig.run(until: 8 * 60_000)
        let monitor = rig.core.ingest.monitor
        let started = try #require(monitor.machine.startedAt)
        let lastFix = try #require(monitor.motion.lastAccepted)
        let offsetBefore = try #require(monitor.utc.offsetMs)
        let measured = try #require(monitor.currentTrip)
        #expect(measured.distance.value > 1_000, "\(measured.distance.value) m")

        rig.killMCU()
        rig.run(until: rig.now + 30_000)
        try rig.replaceMCU(scenario: Self.fixtures + "mcu-thursday.scenario")
        rig.run(until: rig.now + 40 * 60_000)
        rig.finish()

        let stamped = Self.stamped(rig.stored)
        let ends = stamped.compactMap { item -> (record: SessionRecord, offsetMs: Int64?)? in
            if case let .sessionEnded(record) = item.output { return (record, item.offsetMs) }
            return nil
        }
        try #require(ends.count == 1, "\(rig.sessions)")
        let end = ends[0]
        #expect(end.record.reason == .powerLoss)
        // Stamped as the store stamps it, the end is the last fix's UTC, on Monday.
        let endUTC = try #require(end.offsetMs.map { end.record.endedAt.value + $0 })
        #expect(endUTC == lastFix.time.value + offsetBefore)
        // Measured up to that fix: the trip's duration and distance are what they were.
        #expect(end.record.metrics.durationMs == lastFix.time.value - started.value)
        #expect(end.record.metrics.distance == measured.distance)
        // Three days later, with no tap: the drive is not Anna's trip going on, it is untracked.
        #expect(!rig.stored.contains { if case .sessionResumed = $0 { true } else { false } })
        #expect(rig.stored.filter { if case .sessionStarted = $0 { true } else { false } }.count == 1)
        #expect(rig.untrackedKilometers > 3, "\(rig.untrackedKilometers) km untracked")
    }
}
