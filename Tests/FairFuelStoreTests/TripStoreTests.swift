import FairFuelCore
import FairFuelDomain
import FairFuelParsers
import FairFuelSQLite
import FairFuelStore
import Foundation
import Testing

/// A store in a fresh temporary file.
func temporaryStorePath(_ name: String = "store") -> String {
    let directory = NSTemporaryDirectory() + "fairfuel-tests-\(UUID().uuidString)"
    try! FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    return directory + "/\(name).db"
}

@Suite struct TripStoreMigrationTests {
    @Test func migratesAnEmptyFileAndReopens() throws {
        let path = temporaryStorePath()
        let store = try TripStore(path: path)
        #expect(try store.vehicle().ratedLitersPer100km == 6.5)
        let applied = try Migrator([]).applied(in: store.connection)
        #expect(applied.starts(with: ["2026-11-21-initial", "2026-11-21-calibration-detail", "2026-12-05-track-chunks", "2026-12-05-incremental-vacuum", "2026-12-06-refuel-log"]))
        let again = try TripStore(path: path)
        #expect(try again.vehicle().name == "Family car")
        #expect(try again.connection.scalarText("PRAGMA journal_mode") == "wal")
    }

    @Test func refusesAStoreFromANewerBuild() throws {
        let path = temporaryStorePath()
        let store = try TripStore(path: path)
        try store.connection.run("INSERT INTO schema_migrations (name, applied_order) VALUES ('2099-01-01-future', 99)")
        #expect(throws: StoreError.newerSchema(path: path, unknownMigrations: ["2099-01-01-future"])) {
            _ = try TripStore(path: path)
        }
        #expect(throws: StoreError.self) { _ = try TripStore(path: path, readOnly: true) }
    }

    @Test func readOnlyOfAMissingStoreIsAClearError() {
        #expect(throws: (any Error).self) { _ = try TripStore(path: temporaryStorePath(), readOnly: true) }
    }
}

@Suite struct TripStoreProvisioningTests {
    static let uuid = UUID128("3f2a1b4c-5d6e-4f70-8192-a3b4c5d6e7f8")!

    @Test func driversWithTagsAndBeaconsRoundTrip() throws {
        let store = try TripStore(path: temporaryStorePath())
        let uid = try TagUID(parsing: "04:a2:2b:7a:3c:5d:80")
        let beacon = try BeaconIdentity(spec: "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:1:2")
        let id = try store.addDriver(name: "Alice", tags: [.uid(uid), .driver(Self.uuid)], beacons: [beacon])
        let drivers = try store.drivers()
        #expect(drivers.count == 1)
        #expect(drivers[0].id == id)
        #expect(drivers[0].tags == [.uid(uid), .driver(Self.uuid)])
        #expect(drivers[0].beacons == [beacon])
        let directory = try store.directory()
        #expect(directory.driver(for: beacon) == id)
        #expect(directory.hasBeacon(id))
    }

    @Test func duplicatesAreRefusedAndChangeNothing() throws {
        let store = try TripStore(path: temporaryStorePath())
        let uid = try TagUID(parsing: "04a22b7a")
        try store.addDriver(name: "Alice", tags: [.uid(uid)], beacons: [])
        #expect(throws: StoreError.invalid("a driver named 'alice' already exists")) {
            try store.addDriver(name: "alice", tags: [], beacons: [])
        }
        #expect(throws: StoreError.invalid("tag uid:04:A2:2B:7A is already bound to Alice")) {
            try store.addDriver(name: "Bob", tags: [.uid(uid)], beacons: [])
        }
        #expect(throws: StoreError.invalid("a driver needs a name")) {
            try store.addDriver(name: "  ", tags: [], beacons: [])
        }
        #expect(try store.drivers().map(\.name) == ["Alice"])
    }

    @Test func sixteenDriversFit() throws {
        let store = try TripStore(path: temporaryStorePath())
        for n in 1...16 { try store.addDriver(name: "Driver \(n)", tags: [.uid(try TagUID(parsing: String(format: "0400%04x", n)))], beacons: []) }
        #expect(try store.directory().drivers.count == 16)
    }
}

@Suite struct TripStoreSplitTests {
    static let hour: Int64 = 3_600_000
    static let t0: Int64 = 1_795_000_000_000  // November 2026

    /// A closed session from `start` to `end` hours after t0 burning `liters` evenly (points every 6 minutes).
    static func session(_ store: TripStore, driver: DriverID, name: String, start: Double, end: Double, liters: Double, meters: Double = 1000) throws {
        let startMs = t0 + Int64(start * Double(hour))
        let endMs = t0 + Int64(end * Double(hour))
        let run = try store.beginRun(note: "test")
        let id = try store.openSession(driver: driver, driverName: name, run: run, startLinkMs: 0, startUTCMs: startMs)
        var points: [StoredTripPoint] = []
        var t = startMs
        while t <= endMs {
            let fraction = Double(t - startMs) / Double(endMs - startMs)
            points.append(StoredTripPoint(session: id, utcMs: t, latitude: 48, longitude: 2, speedMetersPerSecond: 10, distanceMeters: fraction * meters, fuelLiters: fraction * liters))
            t += hour / 10
        }
        try store.appendTripPoints(points)
        var metrics = TripMetrics()
        metrics.fuel = Liters(liters)
        metrics.distance = Meters(meters)
        let record = SessionRecord(driver: driver, startedAt: LinkMilliseconds(0), endedAt: LinkMilliseconds(endMs - startMs), reason: .departed, stoppedAt: nil, driverLeftAt: nil, metrics: metrics)
        try store.closeSession(id, record: record, utc: { startMs + $0.value })
    }

    /// The first full fill-up, before any driving: the baseline, "before tracking", not split.
    static func baseline(_ store: TripStore) throws {
        try store.addRefuel(RefuelInput(atUTCMs: t0 - hour, liters: 40, cost: MinorUnits(7_000)))
    }

    @Test func sessionSpanningARefuelIsCutAtItsMoment() throws {
        let store = try TripStore(path: temporaryStorePath())
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        let bob = try store.addDriver(name: "Bob", tags: [], beacons: [])
        try Self.session(store, driver: alice, name: "Alice", start: 0, end: 1, liters: 4)
        // Bob pumps fuel half-way through his trip without ending the session.
        try Self.session(store, driver: bob, name: "Bob", start: 2, end: 4, liters: 8)
        try Self.baseline(store)
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 3 * Self.hour, liters: 30, cost: MinorUnits(6_000)))
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 10 * Self.hour, liters: 5, cost: MinorUnits(1_000)))
        let splits = Array(try store.splits().dropFirst())
        #expect(splits.count == 2)
        // First refuel: Alice 4 L, Bob 4 L (half his session) -> 50/50.
        #expect(splits[0].shares.map(\.driverName) == ["Alice", "Bob"])
        #expect(splits[0].shares.map(\.cost.value) == [3_000, 3_000])
        #expect(abs(splits[0].shares[1].fuelLiters - 4) < 0.01)
        // Second refuel: only the rest of Bob's session.
        #expect(splits[1].shares.map(\.driverName) == ["Bob"])
        #expect(splits[1].shares.map(\.cost.value) == [1_000])
    }

    @Test func refuelEnteredLaterForAnEarlierTimeResplits() throws {
        let store = try TripStore(path: temporaryStorePath())
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        try Self.session(store, driver: alice, name: "Alice", start: 0, end: 1, liters: 4)
        try store.addUntracked(fromUTCMs: Self.t0 + 5 * Self.hour, toUTCMs: Self.t0 + 6 * Self.hour, distanceMeters: 30_000, fuelLiters: 4)
        try Self.baseline(store)
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 10 * Self.hour, liters: 8, cost: MinorUnits(1_601)))
        #expect(try store.splits()[1].shares.map(\.cost.value) == [801, 800])  // Alice, untracked; tie to the lower id
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 2 * Self.hour, liters: 4, cost: MinorUnits(800)))
        let splits = Array(try store.splits().dropFirst())
        #expect(splits.map(\.refuel.cost.value) == [800, 1_601])
        #expect(splits[0].shares.map(\.driverName) == ["Alice"])
        #expect(splits[1].shares.count == 1)
        #expect(splits[1].shares[0].driver == nil)
    }

    @Test func aNewStoresCarIsTheDefaultUntilTheFamilyTellsIt() throws {
        let store = try TripStore(path: temporaryStorePath())
        var vehicle = try store.vehicle()
        #expect(vehicle.isDefaultCar, "the schema's defaults are VehicleProfile's: \(vehicle)")
        vehicle.name = "Zoe"
        vehicle.tankLiters = 45
        try store.setVehicle(vehicle)
        #expect(try store.vehicle().isDefaultCar, "name and tank say nothing about the car's fuel")
        vehicle.idleLitersPerHour = vehicle.idleLitersPerHour(engineLiters: 2.0)
        try store.setVehicle(vehicle)
        #expect(try !store.vehicle().isDefaultCar)
        vehicle.idleLitersPerHour = VehicleProfile.defaultIdleLitersPerHour
        vehicle.massKilograms = 1_250
        try store.setVehicle(vehicle)
        #expect(try !store.vehicle().isDefaultCar)
    }

    @Test func untrackedProRataIsSharedByTheDrivers() throws {
        let store = try TripStore(path: temporaryStorePath())
        var vehicle = try store.vehicle()
        vehicle.untrackedPolicy = .proRata
        try store.setVehicle(vehicle)
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        let bob = try store.addDriver(name: "Bob", tags: [], beacons: [])
        try Self.session(store, driver: alice, name: "Alice", start: 0, end: 1, liters: 3)
        try Self.session(store, driver: bob, name: "Bob", start: 1, end: 2, liters: 1)
        try store.addUntracked(fromUTCMs: Self.t0 + 3 * Self.hour, toUTCMs: Self.t0 + 4 * Self.hour, distanceMeters: 10_000, fuelLiters: 6)
        try Self.baseline(store)
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 5 * Self.hour, liters: 10, cost: MinorUnits(2_000)))
        let shares = try store.splits()[1].shares
        #expect(shares.map(\.cost.value) == [1_500, 500, 0])
        #expect(shares.reduce(0) { $0 + $1.cost.value } == 2_000)
    }

    @Test func nonsenseRefuelsAreRefused() throws {
        let store = try TripStore(path: temporaryStorePath())
        #expect(throws: StoreError.invalid("litres must be more than 0")) {
            try store.addRefuel(RefuelInput(atUTCMs: Self.t0, liters: -1, cost: MinorUnits(100)))
        }
        #expect(throws: StoreError.invalid("90.0 L is more than the 55.0 L tank")) {
            try store.addRefuel(RefuelInput(atUTCMs: Self.t0, liters: 90, cost: MinorUnits(100)))
        }
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0, liters: 30, cost: MinorUnits(100)))
        #expect(throws: StoreError.invalid("a refuel at that moment is already recorded")) {
            try store.addRefuel(RefuelInput(atUTCMs: Self.t0, liters: 30, cost: MinorUnits(100)))
        }
        #expect(try store.refuels().count == 1)
        try store.removeRefuel(id: try store.refuels()[0].id)
        #expect(try store.refuels().isEmpty)
    }

    @Test func powerLossEndsOpenSessionsAtTheirLastRecordedMoment() throws {
        let path = temporaryStorePath()
        let store = try TripStore(path: path)
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        let run = try store.beginRun(note: "test")
        let id = try store.openSession(driver: alice, driverName: "Alice", run: run, startLinkMs: 0, startUTCMs: Self.t0)
        try store.appendTripPoints([
            StoredTripPoint(session: id, utcMs: Self.t0 + 60_000, latitude: 48, longitude: 2, speedMetersPerSecond: 10, distanceMeters: 600, fuelLiters: 0.05),
            StoredTripPoint(session: id, utcMs: Self.t0 + 120_000, latitude: 48, longitude: 2, speedMetersPerSecond: 12, distanceMeters: 1_300, fuelLiters: 0.11),
        ])
        let reopened = try TripStore(path: path)
        #expect(try reopened.endSessionsLeftOpen() == [id])
        let session = try #require(try reopened.sessions().first)
        #expect(session.endReason == .powerLoss)
        #expect(session.endUTCMs == Self.t0 + 120_000)
        #expect(session.durationMs == 120_000)
        #expect(session.distanceMeters == 1_300)
        #expect(abs(session.fuelLiters - 0.11) < 1e-9)
        #expect(try reopened.endSessionsLeftOpen().isEmpty)
    }

    @Test func sessionsStartedBeforeUTCAreStampedWhenTheAnchorArrives() throws {
        let store = try TripStore(path: temporaryStorePath())
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        let run = try store.beginRun(note: "test")
        _ = try store.openSession(driver: alice, driverName: "Alice", run: run, startLinkMs: 5_000, startUTCMs: nil)
        #expect(try store.sessions().first?.startUTCMs == nil)
        try store.anchorRun(run, offsetMs: Self.t0)
        #expect(try store.sessions().first?.startUTCMs == Self.t0 + 5_000)
    }
}

@Suite struct TripStoreCalibrationTests {
    @Test func fullToFullRefuelsCalibrateTheFuelScale() throws {
        let store = try TripStore(path: temporaryStorePath())
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        let t0 = TripStoreSplitTests.t0, hour = TripStoreSplitTests.hour
        try store.addRefuel(RefuelInput(atUTCMs: t0 - hour, liters: 20, cost: MinorUnits(3_000)))
        // 160 km estimated at 12 L (scale 1); the pump then says 15 L (partial 5 + full 10).
        for day in 0..<4 {
            let start = Double(day * 24)
            try TripStoreSplitTests.session(store, driver: alice, name: "Alice", start: start, end: start + 1, liters: 3, meters: 40_000)
        }
        try store.addRefuel(RefuelInput(atUTCMs: t0 + 50 * hour, liters: 5, cost: MinorUnits(900), fullTank: false))
        try store.addRefuel(RefuelInput(atUTCMs: t0 + 100 * hour, liters: 10, cost: MinorUnits(1_800)))
        let history = try store.calibrationHistory()
        #expect(history.count == 1)
        #expect(history[0].outcome == .accepted)
        #expect(abs(history[0].trueLiters.value - 15) < 1e-9)
        #expect(abs(history[0].modelLiters.value - 12) < 0.01)
        #expect(abs(history[0].distance.value - 160_000) < 1)
        let scale = try store.vehicle().fuelScale
        #expect(scale > 1.05 && scale <= 1.25, "scale \(scale)")
        // Removing the refuel forgets what it taught.
        try store.removeRefuel(id: try store.refuels().last!.id)
        #expect(try store.calibrationHistory().isEmpty)
        #expect(try store.vehicle().fuelScale == 1)
    }
}
