import FairFuelCore
import FairFuelDomain
import FairFuelReports
import FairFuelService
import FairFuelStore
import Foundation
import Testing
import TestSupport

/// Four synthetic family days, captured at the link and replayed into a store, then read back
/// through the family views: the sums, scores and documents must hold on real-looking data.
@Suite(.tags(.replay)) struct FamilyDaysReportTests {
    @Test func replayedDaysGiveConsistentSummariesSplitsAndDocuments() throws {
        // Day by day scripting in a debug build needs more stack than a test thread has.
        try onLargeStack { try Self.replayedDaysGiveConsistentSummariesSplitsAndDocumentsOnce() }
    }

    static func replayedDaysGiveConsistentSummariesSplitsAndDocumentsOnce() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-week-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try TripStore(path: directory + "/fairfuel.db")
        for driver in ScenarioFamily.standard.drivers {
            try store.addDriver(name: driver.name, tags: [driver.tagIdentity], beacons: driver.fob.map { [$0.identity] } ?? [])
        }
        var options = ScenarioOptions(seed: 7)
        options.referenceModel = true
        var family = FamilyMonth(seed: 7, days: 4, options: options)
        while let day = family.day() {
            let path = directory + "/day-\(day.index).ffcap"
            let bytes = ScenarioCapture.bytes(day.events, originMs: day.events.first?.timeMs ?? 0, comment: "family week, day \(day.index)")
            #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            _ = try Replay(capturePath: path, store: store).run()
        }
        // Full fills before the first trip, after the second day and after the last trip, each
        // a little more than the estimate (as a real pump would say), at 1.859 EUR/L.
        let sessions = try store.sessions()
        let firstStart = try #require(sessions.first?.startUTCMs)
        let lastEnd = try #require(sessions.last?.endUTCMs)
        let middle = firstStart + 2 * 86_400_000 - firstStart % 86_400_000 - 3_600_000
        var previous = firstStart - 3_600_000
        for at in [previous, middle, lastEnd + 3_600_000] {
            let estimated = sessions.filter { ($0.startUTCMs ?? 0) > previous && ($0.startUTCMs ?? 0) < at }.reduce(0) { $0 + $1.fuelLiters }
            let liters = at == previous ? 40 : (estimated * 1.08 * 100).rounded() / 100 + 0.01
            try store.addRefuel(RefuelInput(atUTCMs: at, liters: liters, cost: MinorUnits(Int64((liters * 185.9).rounded()))))
            previous = at
        }

        let vehicle = try store.vehicle()
        let trips = try store.sessions().map(TripRow.init)
        let splits = try store.splits()
        let shares = BillShare.all(splits)
        let summary = FamilySummary(month: nil, trips: trips, shares: shares, fullFills: try store.fullFillPeriods(),
                                    ratedLitersPer100km: vehicle.ratedLitersPer100km)
        #expect(trips.count >= 10)
        #expect(summary.drivers.count >= 3)
        let bills = splits.reduce(Int64(0)) { $0 + $1.refuel.cost.value }
        #expect(bills > 0)
        #expect(summary.billsTotal.value == bills)
        #expect(summary.drivers.reduce(Int64(0)) { $0 + $1.cost.value } + summary.untrackedCost.value + summary.beforeTrackingCost.value == bills)
        #expect(summary.beforeTrackingCost == splits[0].refuel.cost)  // the first full fill-up is the baseline
        #expect(abs(summary.drivers.reduce(0) { $0 + $1.distanceMeters } - trips.reduce(0) { $0 + $1.distanceMeters }) < 1e-6)
        for driver in summary.drivers where driver.distanceMeters >= EcoScore.minimumMeters {
            let score = try #require(driver.ecoScore, "\(driver.driverName)")
            #expect((0...100).contains(score))
            #expect((2...25).contains(driver.litersPer100km ?? 0), "\(driver.driverName): \(driver.litersPer100km ?? 0) L/100 km")
        }
        for period in summary.fullFills {
            #expect(period.pumpedLiters > 0 && period.trackedMeters > 0)
            #expect((2...25).contains(period.realLitersPer100km ?? 0), "real \(period.realLitersPer100km ?? 0) L/100 km")
        }

        // Every trip's track exports as a document a map tool can read.
        for trip in trips.prefix(5) {
            let points = try store.tripPoints(session: SessionID(trip.id)).map(TrackPoint.init)
            #expect(points.count > 10)
            let gpx = GPXWriter.document(name: "trip \(trip.id)", trip: trip, points: points)
            #expect(gpx.components(separatedBy: "<trkpt ").count - 1 == points.count)
            let geojson = try JSONSerialization.jsonObject(with: Data(GeoJSONWriter.document(trip: trip, points: points).utf8)) as? [String: Any]
            #expect(geojson?["type"] as? String == "FeatureCollection")
        }
        let page = HTMLReport.render(HTMLReport.Content(
            vehicleName: vehicle.name, units: DisplayUnits(units: vehicle.units, currency: vehicle.currency, currencyMinorDigits: 2),
            ratedLitersPer100km: vehicle.ratedLitersPer100km, summary: summary, trips: trips, trend: summary.fullFills))
        for driver in summary.drivers { #expect(page.contains(driver.driverName)) }
        #expect(page.components(separatedBy: "<tr><td>").count - 1 == summary.drivers.count + trips.count)
    }
}
