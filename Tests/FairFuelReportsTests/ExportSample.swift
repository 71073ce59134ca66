import FairFuelCore
import FairFuelReports
import FairFuelStore
import TestSupport

/// A small family month as plain values: two drivers, three trips, three refuels.
enum ExportSample {
    static let fixtures = PackagePaths.root + "/Tests/FairFuelReportsTests/Fixtures"
    /// 2026-11-20T08:00:00Z.
    static let t0: Int64 = 1_795_161_600_000
    static let minute: Int64 = 60_000

    static let metric = DisplayUnits(units: "metric", currency: "EUR", currencyMinorDigits: 2)
    static let imperial = DisplayUnits(units: "imperial", currency: "USD", currencyMinorDigits: 2)

    static let trips: [TripRow] = [
        TripRow(id: 1, driverID: 1, driverName: "Alice", startUTCMs: t0, endUTCMs: t0 + 25 * minute, endReason: "departed",
                distanceMeters: 18_400, durationMs: 25 * minute, movingMs: 21 * minute, idleMs: 4 * minute, harshAccelerations: 1,
                harshBrakings: 0, maximumSpeedMetersPerSecond: 25.3, fuelLiters: 1.21),
        TripRow(id: 2, driverID: 2, driverName: "Bob \"the builder\", Jr.", startUTCMs: t0 + 180 * minute,
                endUTCMs: t0 + 250 * minute, endReason: "switched", distanceMeters: 61_250, durationMs: 70 * minute,
                movingMs: 55 * minute, idleMs: 15 * minute, harshAccelerations: 3, harshBrakings: 4,
                maximumSpeedMetersPerSecond: 36.1, fuelLiters: 4.87, stoppedUTCMs: t0 + 249 * minute),
        TripRow(id: 3, driverID: 1, driverName: "Alice", startUTCMs: t0 + 11 * 1_440 * minute,
                endUTCMs: t0 + 11 * 1_440 * minute + 40 * minute, endReason: "manual", distanceMeters: 30_000,
                durationMs: 40 * minute, movingMs: 36 * minute, idleMs: 4 * minute, harshAccelerations: 0, harshBrakings: 0,
                maximumSpeedMetersPerSecond: 30, fuelLiters: 1.9),
    ]

    /// Alice's first trip, a few points near Paris.
    static let track: [TrackPoint] = [
        TrackPoint(utcMs: t0 + 1_000, latitude: 48.856_613, longitude: 2.352_222, speedMetersPerSecond: 0),
        TrackPoint(utcMs: t0 + 2_000, latitude: 48.856_701, longitude: 2.352_390, speedMetersPerSecond: 3.5),
        TrackPoint(utcMs: t0 + 3_000, latitude: 48.856_850, longitude: 2.352_640, speedMetersPerSecond: 7.25),
        TrackPoint(utcMs: t0 + 4_500, latitude: 48.857_100, longitude: 2.353_100, speedMetersPerSecond: 11),
    ]

    static let shares: [BillShare] = [
        BillShare(refuelID: 1, refuelUTCMs: t0 + 300 * minute, driverName: "Alice", fuelLiters: 1.21, cost: MinorUnits(1_201)),
        BillShare(refuelID: 1, refuelUTCMs: t0 + 300 * minute, driverName: "Bob \"the builder\", Jr.", fuelLiters: 4.87, cost: MinorUnits(4_834)),
        BillShare(refuelID: 1, refuelUTCMs: t0 + 300 * minute, driverName: nil, fuelLiters: 0.5, cost: MinorUnits(496)),
        BillShare(refuelID: 2, refuelUTCMs: t0 + 12 * 1_440 * minute, driverName: "Alice", fuelLiters: 1.9, cost: MinorUnits(3_300)),
        BillShare(refuelID: 3, refuelUTCMs: t0 + 20 * 1_440 * minute, driverName: "Alice", fuelLiters: 2, cost: MinorUnits(3_000)),
    ]

    static let fullFills: [FullFillPeriod] = [
        FullFillPeriod(fromUTCMs: t0 - 10 * 1_440 * minute, toUTCMs: t0 + 300 * minute, pumpedLiters: 38, estimatedLiters: 35.2,
                       trackedMeters: 560_000, odometerKilometers: 571),
        FullFillPeriod(fromUTCMs: t0 + 300 * minute, toUTCMs: t0 + 12 * 1_440 * minute, pumpedLiters: 31.5, estimatedLiters: 29.9,
                       trackedMeters: 470_000, odometerKilometers: nil),
        FullFillPeriod(fromUTCMs: t0 + 12 * 1_440 * minute, toUTCMs: t0 + 20 * 1_440 * minute, pumpedLiters: 24, estimatedLiters: 25.1,
                       trackedMeters: 390_000, odometerKilometers: 388),
    ]

    static var november: CalendarMonth { CalendarMonth(year: 2026, month: 11)! }

    static func summary(_ month: CalendarMonth?) -> FamilySummary {
        FamilySummary(month: month, trips: trips, shares: shares, fullFills: fullFills, ratedLitersPer100km: 6.5)
    }

    static func report(units: DisplayUnits = metric) -> String {
        HTMLReport.render(HTMLReport.Content(
            vehicleName: "Family car <Clio>", units: units, ratedLitersPer100km: 6.5, summary: summary(november),
            trips: trips.filter { november.contains(utcMs: $0.startUTCMs!) },
            trend: fullFills.filter { $0.toUTCMs < november.endUTCMs }))
    }
}
