import FairFuelCore
import FairFuelDomain
import FairFuelService
import FairFuelStore
import Foundation
import Testing
import TestSupport

/// A trip that goes on after a park as a new session is stored from where the car moved
/// off, not from where the evidence came: the decision window is driving too.
@Suite("Recorder: resumed sessions")
struct RecorderResumedSessionTests {
    @Test("a new session continuing the last starts at the resumption's startedAt")
    func aNewContinuingSessionStartsWhereTheCarMovedOff() throws {
        let (store, directory) = try RecorderBufferTests.familyStore()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recorder = SessionRecorder(
            store: store, run: try store.beginRun(note: "resume"), directory: try store.directory(), policy: TripPointFlushPolicy())
        let offsetMs: Int64 = 1_795_000_000_000
        let ben = ScenarioFamily.driverID(.ben)
        recorder.record(.utcAnchored(offsetMs: offsetMs, at: LinkMilliseconds(0)))
        recorder.record(.sessionResumed(SessionResumption(
            driver: ben, startedAt: LinkMilliseconds(10_000), at: LinkMilliseconds(70_000), continuing: false, origin: .stop,
            movedOffAt: LinkMilliseconds(10_000))))
        recorder.record(.tripPoint(TripPoint(
            driver: ben, at: LinkMilliseconds(71_000), latitude: 48.1, longitude: 11.5, speed: MetersPerSecond(20),
            distance: Meters(1_500), fuel: Liters(0.1))))
        recorder.flush()
        let session = try #require(store.sessions().last)
        #expect(session.driver == ben)
        #expect(session.startUTCMs == offsetMs + 10_000)
    }
}
