import FairFuelCore
import FairFuelDomain
@testable import FairFuelService
import FairFuelStore
import Foundation
import Testing

/// Home Assistant's "this month" per driver is `fairfuel summary --month`'s: the family's calendar
/// month. Alice drives from 23:05 to 23:25 UTC on 30 November and pays at 23:40: from 00:05 to
/// 00:40 on 1 December in Berlin (the rule below; no zone files needed).
@Suite struct HomeAssistantMonthTests {
    static let berlin = try! TimeZoneRules(name: "Europe/Berlin", posixRule: "CET-1CEST,M3.5.0,M10.5.0/3")
    static let lateOnTheThirtieth = try! ISO8601.parse("2026-11-30T23:05:00Z").millisecondsSinceEpoch
    static let hour: Int64 = 3_600_000

    static func store() throws -> (TripStore, VehicleProfile, [DriverDirectory.Driver]) {
        let directory = NSTemporaryDirectory() + "fairfuel-ha-month-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let store = try TripStore(path: directory + "/store.db")
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        // The baseline fill-up in mid-November, then Alice's late trip and the refuel after it.
        try store.addRefuel(RefuelInput(atUTCMs: lateOnTheThirtieth - 200 * hour, liters: 40, cost: MinorUnits(7_000)))
        let start = lateOnTheThirtieth
        let end = start + 20 * 60_000
        let run = try store.beginRun(note: "test")
        let id = try store.openSession(driver: alice, driverName: "Alice", run: run, startLinkMs: 0, startUTCMs: start)
        try store.appendTripPoints([
            StoredTripPoint(session: id, utcMs: start, latitude: 48, longitude: 2, speedMetersPerSecond: 10, distanceMeters: 0, fuelLiters: 0),
            StoredTripPoint(session: id, utcMs: end, latitude: 48, longitude: 2, speedMetersPerSecond: 10, distanceMeters: 18_000, fuelLiters: 1.5),
        ])
        var metrics = TripMetrics()
        metrics.fuel = Liters(1.5)
        metrics.distance = Meters(18_000)
        try store.closeSession(id, record: SessionRecord(
            driver: alice, startedAt: LinkMilliseconds(0), endedAt: LinkMilliseconds(end - start), reason: .departed, stoppedAt: nil,
            driverLeftAt: nil, metrics: metrics), utc: { start + $0.value })
        try store.addRefuel(RefuelInput(atUTCMs: end + 15 * 60_000, liters: 10, cost: MinorUnits(1_800)))
        return (store, try store.vehicle(), try store.directory().drivers)
    }

    @Test func thisMonthIsTheFamilysCalendarMonth() throws {
        let (store, vehicle, drivers) = try Self.store()
        let november = try CalendarMonth.parse("2026-11"), december = try CalendarMonth.parse("2026-12")
        func alice(_ month: CalendarMonth, _ zone: TimeZoneRules) throws -> HomeAssistantDiscovery.DriverMonth {
            try #require(try UplinkPublisher.monthFigures(month, in: zone, drivers: drivers, vehicle: vehicle, store: store).first)
        }
        // In Berlin the trip and the bill are December's.
        #expect(try alice(december, Self.berlin).fuelLiters == 1.5)
        #expect(try alice(december, Self.berlin).costMinorUnits > 0)
        #expect(try alice(november, Self.berlin).fuelLiters == 0)
        #expect(try alice(november, Self.berlin).costMinorUnits == 0)
        // In UTC they are November's.
        #expect(try alice(november, .utc).fuelLiters == 1.5)
        #expect(try alice(november, .utc).costMinorUnits == (try alice(december, Self.berlin).costMinorUnits))
        #expect(try alice(december, .utc).fuelLiters == 0)
    }
}
