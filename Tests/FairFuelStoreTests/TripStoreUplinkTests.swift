import FairFuelCore
import FairFuelDomain
import FairFuelSQLite
@testable import FairFuelStore
import Foundation
import Testing

/// The uplink's record messages: queued with their record (same transaction), only with an
/// uplink set, carrying the record's id and a revision that grows with each correction, and
/// positions only as `positions` allows.
@Suite struct TripStoreUplinkTests {
    static let hour = TripStoreSplitTests.hour
    static let t0 = TripStoreSplitTests.t0
    static let uplink = OutboxUplink(budget: OutboxBudget(maximumMessages: 1_000, maximumBytes: 1 << 20))

    static func messages(_ store: TripStore) throws -> [(topic: String, json: [String: Any])] {
        try store.pendingOutboxMessages(limit: 1_000).map { message in
            (message.topic, try #require(JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any]))
        }
    }

    static func kind(_ topic: String) -> String { String(topic.split(separator: "/").last ?? "") }

    @Test func withoutAnUplinkNothingIsQueued() throws {
        let store = try TripStore(path: temporaryStorePath())
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        try TripStoreSplitTests.session(store, driver: alice, name: "Alice", start: 0, end: 1, liters: 4)
        try TripStoreSplitTests.baseline(store)
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 3 * Self.hour, liters: 30, cost: MinorUnits(6_000)))
        #expect(try store.outboxStatistics().pendingMessages == 0)
    }

    @Test func aTripARefuelAndItsSplitAreQueuedInOrderWithTheirRecordIDs() throws {
        let store = try TripStore(path: temporaryStorePath())
        store.uplink = Self.uplink
        let vehicle = try store.vehicleUplinkID()
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        try TripStoreSplitTests.session(store, driver: alice, name: "Alice", start: 0, end: 1, liters: 4)
        try TripStoreSplitTests.baseline(store)
        let refuel = try store.addRefuel(RefuelInput(
            atUTCMs: Self.t0 + 3 * Self.hour, liters: 30, cost: MinorUnits(6_000), station: "Aral", enteredUTCMs: Self.t0 + 4 * Self.hour))
        let messages = try Self.messages(store)
        #expect(messages.map { Self.kind($0.topic) } == ["trip", "refuel", "split", "refuel", "split"])
        #expect(messages.allSatisfy { $0.topic.hasPrefix("fairfuel/\(vehicle)/") })
        let trip = messages[0].json
        let session = try #require(try store.sessions().first)
        #expect(trip["v"] as? Int == 1)
        #expect(trip["vehicle"] as? String == vehicle)
        // The id a USB pull of this car carries, so that a hub's copy and the pull are one car in `family`.
        let uid = try #require(try store.vehicleUID())
        #expect(messages.allSatisfy { $0.json["vehicle_uid"] as? String == uid })
        #expect(uid != vehicle)
        #expect(trip["id"] as? Int64 == session.id.rawValue)
        #expect(trip["revision"] as? Int == 0)
        #expect(trip["driver"] as? String == "Alice")
        #expect(trip["fuel_l"] as? Double == 4)
        #expect(trip["end_reason"] as? String == "departed")
        #expect(trip["start"] == nil && trip["track"] == nil, "positions none: no coordinate")
        // A USB pull's resolution beside the CLI's, so that a hub's summary equals a pull's.
        #expect(trip["duration_ms"] as? Int64 == session.durationMs)
        #expect(trip["moving_ms"] as? Int64 == session.movingMs)
        #expect(trip["idle_ms"] as? Int64 == session.idleMs)
        #expect(trip["max_speed_mps"] as? Double == (session.maximumSpeedMetersPerSecond * 100).rounded() / 100)
        let ids = try store.pendingOutboxMessages(limit: 10).map(\.id.rawValue)
        for (message, id) in zip(messages, ids) { #expect(message.json["message_id"] as? Int64 == id) }
        let refuelMessage = messages[3].json
        #expect(refuelMessage["id"] as? Int64 == refuel)
        #expect(refuelMessage["cost_cents"] as? Int == 6_000)
        #expect(refuelMessage["currency"] as? String == "EUR")
        #expect(refuelMessage["station"] as? String == "Aral")
        let split = messages[4].json
        #expect(split["id"] as? Int64 == refuel)
        let shares = try #require(split["shares"] as? [[String: Any]])
        #expect(shares.reduce(0) { $0 + ($1["cost_cents"] as? Int ?? 0) } == 6_000)
    }

    @Test func theFamilysTimeZoneTravelsOnlyOnceSet() throws {
        let store = try TripStore(path: temporaryStorePath())
        store.uplink = Self.uplink
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        try TripStoreSplitTests.session(store, driver: alice, name: "Alice", start: 0, end: 1, liters: 4)
        var vehicle = try store.vehicle()
        vehicle.timeZone = "Europe/Berlin"
        try store.setVehicle(vehicle)
        try TripStoreSplitTests.session(store, driver: alice, name: "Alice", start: 2, end: 3, liters: 4)
        let trips = try Self.messages(store).filter { Self.kind($0.topic) == "trip" }.map(\.json)
        #expect(trips.count == 2)
        #expect(trips[0]["vehicle_time_zone"] == nil, "a UTC car's messages are what they always were")
        #expect(trips[1]["vehicle_time_zone"] as? String == "Europe/Berlin")
        #expect((trips[1]["start_utc"] as? String)?.hasSuffix("Z") == true, "instants stay UTC")
    }

    @Test func aCorrectionIsTheSameIDWithAHigherRevision() throws {
        let store = try TripStore(path: temporaryStorePath())
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        let bob = try store.addDriver(name: "Bob", tags: [], beacons: [])
        try TripStoreSplitTests.session(store, driver: alice, name: "Alice", start: 0, end: 1, liters: 4)
        store.uplink = Self.uplink
        let session = try #require(try store.sessions().first).id.rawValue
        _ = try store.assignTrips([.session(session)], to: bob)
        _ = try store.assignTrips([.session(session)], to: alice)
        _ = try store.deleteTrip(.session(session))
        let trips = try Self.messages(store).filter { Self.kind($0.topic) == "trip" }.map(\.json)
        #expect(trips.map { $0["id"] as? Int64 } == [session, session, session])
        #expect(trips.map { $0["revision"] as? Int } == [0, 1, 2])
        #expect(trips.map { $0["driver"] as? String } == ["Bob", "Alice", nil])
        #expect(trips.last?["deleted"] as? Bool == true)
    }

    @Test func untrackedDrivingGivenToADriverIsPublishedAsAssignedAsTripsListsIt() throws {
        let store = try TripStore(path: temporaryStorePath())
        store.uplink = Self.uplink
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        try store.addUntracked(fromUTCMs: Self.t0, toUTCMs: Self.t0 + Self.hour, distanceMeters: 20_000, fuelLiters: 3)
        let untracked = try #require(try store.untrackedDriving().first)
        let (_, corrections) = try store.assignTrips([.untracked(untracked.id)], to: alice)
        let session = try #require(try store.sessions().first)
        #expect(session.endReason == .manual, "stored as a session ended by hand")
        #expect(session.reportedEndReason == "assigned")
        let trip = try #require(try Self.messages(store).last { Self.kind($0.topic) == "trip" }?.json)
        #expect(trip["id"] as? Int64 == session.id.rawValue)
        #expect(corrections.count == 1)
        // A hub reads it as `trips` shows it: no times or harsh events of its own.
        #expect(trip["end_reason"] as? String == "assigned")
        #expect(trip["distance_km"] as? Double == 20)
    }

    @Test func aTripAPowerCutLeftOpenIsPublishedWhenItIsEnded() throws {
        let store = try TripStore(path: temporaryStorePath())
        store.uplink = Self.uplink
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        let run = try store.beginRun(note: "test")
        let session = try store.openSession(driver: alice, driverName: "Alice", run: run, startLinkMs: 0, startUTCMs: Self.t0)
        try store.appendTripPoints([
            StoredTripPoint(session: session, utcMs: Self.t0 + 60_000, latitude: 48, longitude: 2, speedMetersPerSecond: 10, distanceMeters: 600, fuelLiters: 0.05),
        ])
        #expect(try store.outboxStatistics().pendingMessages == 0, "an open session is no finished trip")
        #expect(try store.endSessionsLeftOpen() == [session])
        let trips = try Self.messages(store).map(\.json)
        #expect(trips.count == 1)
        #expect(trips.first?["id"] as? Int64 == session.rawValue)
        #expect(trips.first?["end_reason"] as? String == "power_loss")
    }

    @Test func aMessageRollsBackWithItsRecord() throws {
        let store = try TripStore(path: temporaryStorePath())
        store.uplink = Self.uplink
        try TripStoreSplitTests.baseline(store)
        let before = try store.outboxStatistics().pendingMessages
        #expect(throws: StoreError.self) {
            try store.addRefuel(RefuelInput(atUTCMs: Self.t0 - Self.hour + 1_000, liters: 10, cost: MinorUnits(100)))
        }
        #expect(try store.outboxStatistics().pendingMessages == before)
    }

    @Test("positions: none has no coordinate, summary the first and last point, track every kept point", arguments: OutboxPositions.allCases)
    func positions(_ positions: OutboxPositions) throws {
        let store = try TripStore(path: temporaryStorePath())
        store.uplink = OutboxUplink(budget: Self.uplink.budget, positions: positions)
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        try TripStoreSplitTests.session(store, driver: alice, name: "Alice", start: 0, end: 1, liters: 4)
        let payload = try #require(try store.pendingOutboxMessages(limit: 1).first).payload
        let trip = try #require(JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
        let points = try store.tripPoints(session: try #require(try store.sessions().first).id)
        switch positions {
        case .none:
            #expect(trip["start"] == nil && trip["end"] == nil && trip["track"] == nil)
            #expect(!String(decoding: payload, as: UTF8.self).contains("48.0"))
        case .summary:
            #expect((trip["start"] as? [Double]) == [points[0].latitude, points[0].longitude])
            #expect(trip["track"] == nil)
        case .track:
            #expect((trip["track"] as? [[Double]])?.count == points.count)
            #expect(trip["start"] == nil)
        }
    }
}
