@testable import FairFuelPull
import FairFuelReports
import FairFuelStore
import Foundation
import Testing

/// The hub checks every message against the documented payloads before it stores anything: the
/// hostile and mistaken messages of docs/mqtt.md are refused with a reason the hub keeps, and the
/// family's views of what it did store keep working.
@Suite struct HubIngestTests {
    static let vehicle = HubCollectorTests.vehicle
    static let copier = "fedcba9876543210fedcba9876543210"
    static let uid = "461c9861-7a2b-4c3d-8e4f-5a6b7c8d9e0f"

    static func text(_ payload: [UInt8]) -> String { String(decoding: payload, as: UTF8.self) }
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
    static func replacing(_ payload: [UInt8], _ old: String, _ new: String) -> [UInt8] {
        let replaced = text(payload).replacingOccurrences(of: old, with: new)
        precondition(replaced != text(payload), "\(old) is not in the message")
        return bytes(replaced)
    }

    final class Hub {
        let directory = NSTemporaryDirectory() + "fairfuel-hub-\(UUID().uuidString.prefix(8))"
        let collector: HubCollector
        init(database: (any HubRecordStoring)? = nil) throws { collector = try HubCollector(directory: directory, prefix: "fairfuel", database: database) }
        deinit { try? FileManager.default.removeItem(atPath: directory) }

        func take(_ kind: String, _ payload: [UInt8], vehicle: String = HubIngestTests.vehicle) throws -> HubCollector.Outcome {
            try collector.receive(topic: "fairfuel/\(vehicle)/\(kind)", payload: payload)
        }

        /// The family's view of the hub's directory, as `fairfuel family DIR --json` prints it.
        func family() throws -> String {
            try collector.flush()
            return FamilyView(try FamilyBooks.load(directories: try FamilyBooks.carDirectories([directory]))).json
        }
    }

    static let trip = HubCollectorTests.trip(1, revision: 0, driver: "Anna", message: 1)
    static let split = HubCollectorTests.split(12, message: 2)

    @Test func impossibleFiguresAndWrongTypesAreRefusedWithTheirReason() throws {
        let hub = try Hub()
        let cases: [(kind: String, payload: [UInt8], reason: String)] = [
            ("trip", Self.replacing(Self.trip, "\"distance_m\":21406.3", "\"distance_m\":999999999999"), "distance_m 999999999999 is outside 0...10000000"),
            ("trip", Self.replacing(Self.trip, "\"fuel_ml\":1482.3", "\"fuel_ml\":9000000"), "fuel_ml 9000000 is outside"),
            ("trip", Self.replacing(Self.trip, "\"driver\":\"Anna\"", "\"driver\":42"), "driver must be text, not 42"),
            ("trip", Self.replacing(Self.trip, "\"distance_m\":21406.3", "\"distance_m\":\"21406.3\""), "distance_m must be a number"),
            ("trip", Self.replacing(Self.trip, "\"start_utc\":\"2026-11-25T07:41:03.000Z\"", "\"start_utc\":\"yesterday\""), "start_utc must be an ISO 8601"),
            ("trip", Self.replacing(Self.trip, "\"revision\":0", "\"revision\":\"0\""), "not a version 1 record message"),
            ("trip", Self.replacing(Self.trip, "\"driver\":\"Anna\"", "\"driver\":\"An\\u0007na\""), "driver contains control characters"),
            ("split", Self.replacing(Self.split, "\"cost_cents\":2887", "\"cost_cents\":1000000000"), "share: cost_cents 1000000000 is outside"),
            ("split", Self.replacing(Self.split, "\"cost_cents\":2887", "\"cost_cents\":2000"), "the shares add up to 6509, not the bill's cost_cents 7396"),
            ("split", Self.replacing(Self.split, "\"currency\":\"EUR\"", "\"currency\":\"euros\""), "currency must be an ISO 4217 code"),
            ("split", Self.replacing(Self.split, "\"liters\":41.200", "\"liters\":-41.2"), "liters out of range"),
        ]
        for (kind, payload, reason) in cases {
            let outcome = try hub.take(kind, payload)
            guard case let .refused(text) = outcome else {
                if case let .ignored(text) = outcome, text.contains(reason) { continue }
                Issue.record("\(outcome) for \(Self.text(payload))")
                continue
            }
            #expect(text.contains(reason), "\(text) lacks \(reason)")
        }
        // Nothing of them reached the family: no trip, no bill; the good ones still go in.
        #expect(try hub.take("trip", Self.trip) == .kept)
        #expect(try hub.take("split", Self.split) == .kept)
        let family = try hub.family()
        #expect(family.contains("\"Anna\"") && !family.contains("999999"), "\(family)")
        // Every refusal is kept with its reason for `fairfuel hub status`.
        let refused = try HubRefusals.read(directory: hub.directory)
        #expect(refused.count == cases.count - 1, "a text revision is not a record message: ignored, not refused")
        #expect(refused.first?.reason == "distance_m 999999999999 is outside 0...10000000")
        #expect(refused.first?.vehicle == Self.vehicle && refused.first?.kind == "trip" && refused.first?.messageID == 1)
    }

    @Test func aCopiedVehicleUIDIsRefusedAndTheFamilyViewKeepsWorking() throws {
        let hub = try Hub()
        func claiming(_ vehicle: String, message: Int, id: Int) -> [UInt8] {
            var text = Self.text(HubCollectorTests.trip(id, revision: 0, driver: "Anna", message: message))
            text = text.replacingOccurrences(of: "\"vehicle\":\"\(Self.vehicle)\"", with: "\"vehicle\":\"\(vehicle)\",\"vehicle_uid\":\"\(Self.uid)\"")
            return Self.bytes(text)
        }
        #expect(try hub.take("trip", claiming(Self.vehicle, message: 1, id: 1)) == .kept)
        // Another vehicle id copies the car's public vehicle_uid: refused, nothing written for it.
        #expect(try hub.take("trip", claiming(Self.copier, message: 1, id: 1), vehicle: Self.copier)
            == .refused("vehicle_uid \(Self.uid) belongs to vehicle \(Self.vehicle), which claimed it first"))
        let family = try hub.family()
        #expect(family.contains("\"Anna\""), "\(family)")
        // The binding outlives the hub's restart.
        let again = try HubCollector(directory: hub.directory, prefix: "fairfuel")
        #expect(try again.receive(topic: "fairfuel/\(Self.copier)/trip", payload: claiming(Self.copier, message: 2, id: 2))
            == .refused("vehicle_uid \(Self.uid) belongs to vehicle \(Self.vehicle), which claimed it first"))
        #expect(try again.receive(topic: "fairfuel/\(Self.vehicle)/trip", payload: claiming(Self.vehicle, message: 3, id: 3)) == .kept)
        #expect(try HubRefusals.read(directory: hub.directory).count == 2)
    }

    @Test func theRefusalLogKeepsOnlyTheNewest() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-hub-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = try HubRefusals(path: directory + "/" + HubRefusals.fileName, limit: 5)
        for index in 0..<23 {
            try log.record(vehicle: Self.vehicle, kind: "trip", messageID: Int64(index), reason: "r\(index)", receivedUTCMs: Int64(index))
        }
        let kept = try HubRefusals.read(directory: directory)
        #expect(kept.count <= 10 && kept.count >= 5, "\(kept.count)")
        #expect(kept.last?.reason == "r22")
    }

    /// A message too large to read, a track longer than any car keeps or with points that are no
    /// places, and a split whose shares burnt more than a tank: each refused with its reason, before
    /// anything is stored.
    @Test func oversizedMessagesLongTracksAndImpossibleSharesAreRefused() throws {
        let hub = try Hub()
        func withTrack(_ points: String) -> [UInt8] {
            Self.replacing(Self.trip, "\"end_reason\"", "\"track\":[\(points)],\"end_reason\"")
        }
        let tooMany = (0...HubMessageCheck.maximumTrackPoints).map { "[\(1_795_000_000_000 + $0 * 1000),48.1,11.5]" }.joined(separator: ",")
        let padded = Self.text(Self.trip).dropLast() + ",\"note\":\"" + String(repeating: "x", count: HubMessageCheck.maximumPayloadBytes) + "\"}"
        let shares = (0..<64).map { _ in "{\"driver\":\"Anna\",\"fuel_l\":500,\"cost_cents\":1}" }.joined(separator: ",")
        var flood = Self.text(Self.split)
        flood = String(flood[..<flood.range(of: "\"shares\":")!.upperBound]) + "[\(shares)]}"
        flood = flood.replacingOccurrences(of: "\"cost_cents\":7396", with: "\"cost_cents\":64")
        let cases: [(kind: String, payload: [UInt8], reason: String)] = [
            ("trip", Self.bytes(String(padded)), "more than the \(HubMessageCheck.maximumPayloadBytes) a record can be"),
            ("trip", withTrack(tooMany), "track has \(HubMessageCheck.maximumTrackPoints + 1) points, more than \(HubMessageCheck.maximumTrackPoints)"),
            ("trip", withTrack("[1795000000000,48.1]"), "a track point must be [t_utc_ms, lat, lon]"),
            ("trip", withTrack("[1795000000000,91.0,11.5]"), "a track point must be [t_utc_ms, lat, lon] in degrees"),
            ("trip", Self.replacing(Self.trip, "\"end_reason\"", "\"start\":[48.1,181],\"end_reason\""), "start must be [latitude, longitude]"),
            ("trip", Self.replacing(Self.trip, "\"end_reason\"", "\"track\":{\"a\":1},\"end_reason\""), "track must be a list"),
            ("split", Self.bytes(flood), "the shares' fuel_l add up to 32000 L, more than one tank (500 L)"),
        ]
        for (kind, payload, reason) in cases {
            let outcome = try hub.take(kind, payload)
            guard case let .refused(text) = outcome else {
                Issue.record("\(outcome) for \(reason)")
                continue
            }
            #expect(text.contains(reason), "\(text) lacks \(reason)")
        }
        // A baseline mark's split has no shares and no cost: stored; no shares for a bill with a cost is refused.
        let empty = String(Self.text(Self.split).prefix { $0 != "[" }) + "[]}"
        let baseline = empty.replacingOccurrences(of: "\"liters\":41.200,\"cost_cents\":7396", with: "\"liters\":0,\"cost_cents\":0")
        #expect(try hub.take("split", Self.bytes(baseline)) == .kept)
        #expect(try hub.take("split", Self.bytes(empty)) == .refused("the shares add up to 0, not the bill's cost_cents 7396"))
        // A track a car keeps is stored; the family view has none of the refused ones.
        #expect(try hub.take("trip", withTrack("[1795000000000,48.1,11.5],[1795000060000,-33.4,-70.6]")) == .kept)
        let family = try hub.family()
        #expect(family.contains("\"Anna\"") && !family.contains("32000"), "\(family)")
        let refused = try HubRefusals.read(directory: hub.directory)
        #expect(refused.count == cases.count + 1 && refused.first?.messageID == nil, "the oversized message is not parsed for its id")
    }

    /// A vehicle id that claims uid after uid (each message a new one) binds only a car's lifetime
    /// of them: the bindings stop growing, the rest are refused with the reason, and other cars
    /// still bind theirs. In a hub directory and in a hub database alike.
    @Test func aVehicleClaimingUIDAfterUIDIsBounded() throws {
        let database = NSTemporaryDirectory() + "fairfuel-hubdb-\(UUID().uuidString.prefix(8)).db"
        defer { try? FileManager.default.removeItem(atPath: database) }
        let store = try HubRecordStore(path: database)
        for hub in [try Hub(), try Hub(database: store)] {
            func claiming(_ uid: String, vehicle: String, message: Int) -> [UInt8] {
                var text = Self.text(HubCollectorTests.trip(message, revision: 0, driver: "Anna", message: message))
                text = text.replacingOccurrences(of: "\"vehicle\":\"\(Self.vehicle)\"", with: "\"vehicle\":\"\(vehicle)\",\"vehicle_uid\":\"\(uid)\"")
                return Self.bytes(text)
            }
            let bound = HubRecordSQL.maximumUIDsPerVehicle
            for index in 0..<bound {
                #expect(try hub.take("trip", claiming("uid-\(index)", vehicle: Self.copier, message: index + 1), vehicle: Self.copier) == .kept)
            }
            for index in bound..<(bound + 20) {
                #expect(try hub.take("trip", claiming("uid-\(index)", vehicle: Self.copier, message: index + 1), vehicle: Self.copier)
                    == .refused(HubMessageCheck.tooManyUIDs(vehicle: Self.copier)))
            }
            // Its own uids still go in; another car binds its own.
            #expect(try hub.take("trip", claiming("uid-0", vehicle: Self.copier, message: 100), vehicle: Self.copier) == .kept)
            #expect(try hub.take("trip", claiming(Self.uid, vehicle: Self.vehicle, message: 1)) == .kept)
            if hub.collector.database == nil {
                let lines = try String(contentsOfFile: hub.directory + "/" + HubCollector.uidsName, encoding: .utf8).split(separator: "\n")
                #expect(lines.count == bound + 1, "\(lines.count) bindings")
            } else {
                // The database refuses a ninth binding itself, whichever instance asks.
                #expect(try store.claimVehicleUID("uid-99", vehicle: Self.copier) == "")
                #expect(try store.claimVehicleUID("uid-3", vehicle: Self.copier) == Self.copier)
            }
        }
    }

    /// With a database the collector's bindings are a cache: emptied at its bound, and a binding
    /// it forgot is still the database's (a copier is refused after the eviction as before).
    @Test func theUIDCacheStaysWithinItsBoundAndForgetsNoBinding() throws {
        let database = NSTemporaryDirectory() + "fairfuel-hubdb-\(UUID().uuidString.prefix(8)).db"
        defer { try? FileManager.default.removeItem(atPath: database) }
        let hub = try Hub(database: try HubRecordStore(path: database))
        hub.collector.uidCacheLimit = 3
        func claiming(_ uid: String, vehicle: String) -> [UInt8] {
            var text = Self.text(HubCollectorTests.trip(1, revision: 0, driver: "Anna", message: 1))
            text = text.replacingOccurrences(of: "\"vehicle\":\"\(Self.vehicle)\"", with: "\"vehicle\":\"\(vehicle)\",\"vehicle_uid\":\"\(uid)\"")
            return Self.bytes(text)
        }
        for index in 0..<10 {
            #expect(try hub.take("trip", claiming("uid-\(index)", vehicle: "car\(index)"), vehicle: "car\(index)") == .kept)
            #expect(hub.collector.cachedUIDCount <= 3)
        }
        #expect(try hub.take("trip", claiming("uid-0", vehicle: Self.copier), vehicle: Self.copier)
            == .refused("vehicle_uid uid-0 belongs to vehicle car0, which claimed it first"))
    }

    /// A flood of bad messages is refused without a sync each (the refusal log is diagnostics), and
    /// stays bounded; the good message after it is stored.
    @Test func aFloodOfBadMessagesIsRefusedWithoutASyncEach() throws {
        let hub = try Hub()
        #expect(!((hub.collector.refusals as? HubRefusals)?.log.durable ?? true), "a directory hub's refusal log is not synced each")
        let bad = Self.replacing(Self.trip, "\"distance_m\":21406.3", "\"distance_m\":999999999999")
        let start = Date()
        for _ in 0..<(2 * HubRefusals.maximumKept + 500) { _ = try hub.take("trip", bad) }
        let seconds = Date().timeIntervalSince(start)
        print("HubIngestTests: \(2 * HubRefusals.maximumKept + 500) refusals in \(String(format: "%.2f", seconds)) s")
        #expect(try hub.take("trip", Self.trip) == .kept)
        let lines = try String(contentsOfFile: hub.directory + "/" + HubRefusals.fileName, encoding: .utf8).split(separator: "\n")
        #expect(lines.count <= 2 * HubRefusals.maximumKept, "\(lines.count) lines")
        #expect(hub.collector.counters.refused == 2 * HubRefusals.maximumKept + 500)
    }
}
