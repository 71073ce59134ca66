import FairFuelCore
import FairFuelDomain
import FairFuelParsers
import FairFuelService
import FairFuelStore
import Foundation
import Testing
import TestSupport

/// A receiver whose clock jumps for a few epochs (a bad epoch) never moves a stored session
/// in time: the session keeps its length and its true start, and the jump is counted.
@Suite("Receiver time jumps, stored")
struct ReceiverTimeJumpTests {
    /// 2026-03-02T07:00:00Z.
    static let morningUTCMs: Int64 = 1_772_434_800_000

    /// What a drive stored: Ben taps at 11.5 s, drives north at 12 m/s, ends the session by hand
    /// 30 s later; the receiver's fixes at 1 Hz read `stepMs` off at the seconds `jumped`.
    static func drive(stepMs: Int64, jumped: Set<Int>) throws -> (session: StoredSession, monitor: DrivingMonitor, outputs: [DomainOutput]) {
        let (store, directory) = try RecorderBufferTests.familyStore()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recorder = SessionRecorder(
            store: store, run: try store.beginRun(note: "jump"), directory: try store.directory(), policy: TripPointFlushPolicy())
        var monitor = try RecorderBufferTests.monitor()
        var outputs: [DomainOutput] = []
        let emit = { (output: DomainOutput) in
            outputs.append(output)
            recorder.record(output)
        }
        let ben = ScenarioFamily.standard[.ben]
        let tap = try NFCTagIdentities(technology: .iso14443A, uid: ben.tagUID[...], ndef: ben.tagNDEF[...])
        for second in 0...60 {
            let linkMs = Int64(second) * 1_000
            let receiverMs = Self.morningUTCMs + linkMs + (jumped.contains(second) ? stepMs : 0)
            let fix = GNSSFix(
                utc: UTCTimestamp(millisecondsSinceEpoch: receiverMs), latitude: 48.0 + Double(second) * 12 / 111_195,
                longitude: 11.0, speed: MetersPerSecond(12), mode: .fix3D, satellitesUsed: 9, hdop: 0.9)
            monitor.handle(.fix(fix, at: LinkMilliseconds(linkMs)), emit)
            if second == 11 { monitor.handle(.tagRead(tap, at: LinkMilliseconds(11_500)), emit) }
            if second == 41 { monitor.handle(.endSession(at: LinkMilliseconds(41_500)), emit) }
        }
        recorder.flush()
        let session = try #require(try store.sessions().last)
        return (session, monitor, outputs)
    }

    @Test("a receiver that jumps two hours back for three epochs around the tap: the session keeps its 30 s and its start")
    func twoHoursBack() throws {
        let (session, monitor, outputs) = try Self.drive(stepMs: -7_200_000, jumped: [9, 10, 11])
        #expect(session.driver == ScenarioFamily.driverID(.ben))
        #expect(session.startUTCMs == Self.morningUTCMs + 11_500)
        #expect(session.endUTCMs == Self.morningUTCMs + 41_500)
        #expect(session.durationMs == 30_000)
        // 30 s at 12 m/s, and the step across the bad epochs (from the fix at 8 s to the one at
        // 12 s, 3.5 s of it before the tap) that ends in the session.
        #expect(session.distanceMeters > 355 && session.distanceMeters < 410, "\(session.distanceMeters) m")
        #expect(monitor.utc.badEpochCount == 3)
        #expect(monitor.utc.offsetMs == Self.morningUTCMs)
        // Said once for the run of bad epochs, with the step.
        let said = outputs.filter { if case .receiverTimeRejected = $0 { true } else { false } }
        #expect(said == [.receiverTimeRejected(stepMs: -7_200_000, at: LinkMilliseconds(9_000))])
    }

    @Test("a receiver that leaps two hours ahead for a few epochs mid-trip changes nothing either")
    func twoHoursAhead() throws {
        let (session, monitor, _) = try Self.drive(stepMs: 7_200_000, jumped: [10, 11, 20, 21, 22])
        #expect(session.startUTCMs == Self.morningUTCMs + 11_500)
        #expect(session.endUTCMs == Self.morningUTCMs + 41_500)
        #expect(abs(session.distanceMeters - 360) < 30, "\(session.distanceMeters) m")
        #expect(monitor.utc.badEpochCount == 5)
    }

    @Test("control: a steady receiver stores the same session")
    func steadyReceiver() throws {
        let (session, monitor, _) = try Self.drive(stepMs: 0, jumped: [])
        #expect(session.startUTCMs == Self.morningUTCMs + 11_500)
        #expect(session.durationMs == 30_000)
        #expect(abs(session.distanceMeters - 360) < 30, "\(session.distanceMeters) m")
        #expect(monitor.utc.badEpochCount == 0)
    }
}
