import FairFuelCore
import FairFuelDomain
import FairFuelLink
import FairFuelServiceCore
@testable import FairFuelSimulation
import Testing
import TestSupport

/// Revision 1.1's reliable events between the service core and the virtual MCU: a tap whose
/// frame the line loses is sent again until the host's EVENT_ACK, and delivered once however
/// many copies arrive; a revision 1.0 MCU gets no EVENT_ACK and keeps working as before.
@Suite struct ReliableEventTests {
    static let shortDrive = PackagePaths.root + "/scenarios/short-drive.scenario"
    static let shortDriveOldMCU = PackagePaths.root + "/Tests/FairFuelServiceCoreTests/Fixtures/short-drive-mcu-1.0.scenario"

    static func isTag(_ frame: Frame) -> Bool {
        if case .nfcTag = frame.message { return true }
        return false
    }

    static func isEventAck(_ frame: Frame) -> Bool {
        if case .eventAck = frame.message { return true }
        return false
    }

    /// Counts the frames a filter saw (a class: the rig keeps the filter).
    final class Count { var value = 0 }

    /// `path` played to its end and a departure, the line losing what the filters say.
    static func played(_ path: String, mcuLoses: ((Frame) -> Bool)? = nil, hostLoses: ((Frame) -> Bool)? = nil) throws -> CoreRig {
        var rig = try CoreRig(scenario: path)
        rig.dropsFrame = mcuLoses
        rig.dropsHostFrame = hostLoses
        rig.run(until: rig.plan.endMs + 300_000)
        rig.finish()
        return rig
    }

    static func starts(_ rig: CoreRig) -> Int {
        rig.stored.filter { if case .sessionStarted = $0 { true } else { false } }.count
    }

    @Test func aTapWhoseFirstThreeCopiesAreLostStartsTheSessionOnce() throws {
        let copies = Count()
        let rig = try Self.played(Self.shortDrive, mcuLoses: { frame in
            guard Self.isTag(frame) else { return false }
            copies.value += 1
            return copies.value <= 3
        })
        #expect(rig.droppedFrames == 3)
        #expect(copies.value == 4, "the fourth copy, 750 ms after the tap, was acknowledged and ended the repeats")
        #expect(rig.sessions.map(\.driver) == ["Anna"], "\(rig.sessions)")
        #expect(rig.sessions.first?.reason == "departed")
        #expect(Self.starts(rig) == 1)
        #expect(rig.core.feedbackSent.filter { $0 == .sessionStarted }.count == 1)
        #expect(rig.mcu.statistics.retaps == 0, "the beep came within 3 s: Anna did not tap again")
        #expect(rig.core.linkCounters.eventRepeat == 0)
        #expect(rig.untrackedKilometers < 0.05, "\(rig.untrackedKilometers) km untracked")
    }

    @Test func copiesOfATapWhoseEventAckWasLostAreDeliveredOnce() throws {
        let acks = Count()
        let rig = try Self.played(Self.shortDrive, hostLoses: { frame in
            guard Self.isEventAck(frame) else { return false }
            acks.value += 1
            return acks.value <= 2
        })
        #expect(rig.droppedHostFrames == 2)
        // The tap went out three times (its first two EVENT_ACKs lost); the two copies are repeats.
        #expect(rig.core.linkCounters.eventRepeat == 2)
        #expect(rig.mcu.reliable.repeatsSent == 2)
        #expect(Self.starts(rig) == 1)
        #expect(rig.core.feedbackSent.filter { $0 == .sessionStarted }.count == 1)
        #expect(rig.core.feedbackSent.filter { $0 == .accepted }.isEmpty, "a repeat is not a second tap")
        #expect(rig.sessions.map(\.driver) == ["Anna"], "\(rig.sessions)")
        // Every tap and ignition change was answered: nothing is left waiting in the MCU.
        #expect(rig.mcu.reliable.nextDue == nil)
        #expect(UInt64(rig.mcu.reliable.settled) == rig.core.eventAcksSent - 2)
    }

    @Test func anMCUWithoutReliableEventsGetsNoEventAck() throws {
        let acks = Count()
        let rig = try Self.played(Self.shortDriveOldMCU, hostLoses: { frame in
            if Self.isEventAck(frame) { acks.value += 1 }
            return false
        })
        #expect(acks.value == 0)
        #expect(rig.core.eventAcksSent == 0)
        #expect(!rig.core.mcuRepeatsEvents)
        #expect(rig.mcu.reliable.repeatsSent == 0)
        #expect(rig.sessions.map(\.driver) == ["Anna"], "\(rig.sessions)")
        // The MCU's own receiver saw no frame it did not know.
        #expect(rig.mcu.statistics.hostCounters.unknownType == 0)
    }

    @Test func onAnOldMCUALostTapIsMadeAgainByADriverWhoHeardNoBeep() throws {
        let taps = Count()
        let rig = try Self.played(Self.shortDriveOldMCU, mcuLoses: { frame in
            guard Self.isTag(frame) else { return false }
            taps.value += 1
            return taps.value == 1
        })
        #expect(rig.droppedFrames == 1)
        #expect(rig.mcu.statistics.retaps == 1, "no FEEDBACK within 3 s: Anna tapped once more, and heard it")
        #expect(rig.sessions.map(\.driver) == ["Anna"], "\(rig.sessions)")
        #expect(Self.starts(rig) == 1)
    }
}
