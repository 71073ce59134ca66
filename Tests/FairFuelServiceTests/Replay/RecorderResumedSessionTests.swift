import FairFuelCore
import FairFuelDomain
import FairFuelParsers
import FairFuelService
import FairFuelStore
import Foundation
import Testing
import TestSupport

/// Unknown taps in the event log: a card held on the reader or tapped again and again is one
/// event per 10 minutes, a run of different cards one a minute; the rest are counted.
@Suite("Recorder unknown tags")
struct RecorderUnknownTagTests {
    @Test("1 500 taps, one every 2 s, of a tag and of random-UID cards, write a bounded number of events")
    func aFloodOfUnknownTapsIsBounded() throws {
        let (store, directory) = try RecorderBufferTests.familyStore()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recorder = SessionRecorder(
            store: store, run: try store.beginRun(note: "taps"), directory: try store.directory(), policy: TripPointFlushPolicy())
        let card = try TagUID(bytes: [0x04, 0xEE, 0x10, 0x42, 0x7F, 0x3A, 0x80][...])
        var random = SeededGenerator(seed: 3)
        // 25 minutes of the same card every 2 s, then 25 minutes of a phone's random UIDs.
        for tap in 0..<1_500 {
            let uid = tap < 750 ? card : try TagUID(bytes: [0x08] + (0..<3).map { _ in UInt8.random(in: 0...255, using: &random) })
            recorder.record(.unknownTag(uid, at: LinkMilliseconds(Int64(tap) * 2_000)))
        }
        recorder.flush()
        let events = try store.events(kind: "unknown_tag")
        // The card: at 0, 10 and 20 min; the random UIDs: one a minute over 25 minutes.
        #expect(events.filter { $0.detail == card.description }.count == 3)
        #expect(events.count == 3 + 25, "\(events.count) events")
        #expect(recorder.unknownTagsNotRecorded == 1_500 - events.count)
        #expect(TagUID(bytesOrNil: [0x08, 1, 2, 3])?.isRandomlyGenerated == true)
    }
}

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

extension TagUID {
    init?(bytesOrNil bytes: [UInt8]) { try? self.init(bytes: bytes[...]) }
}
