import FairFuelCore
import FairFuelDomain
@testable import FairFuelStore
import Foundation
import TestSupport

/// A deterministic trip at 1 Hz: a random walk through a town, with running distance and fuel.
struct SyntheticTrip {
    var startUTCMs: Int64
    var points: [StoredTripPoint]

    /// `count` points from `startUTCMs`, one a second (sometimes two), the same for the same seed.
    init(seed: UInt64, startUTCMs: Int64, count: Int, session: SessionID = SessionID(0)) {
        var random = SeededGenerator(seed: seed)
        self.startUTCMs = startUTCMs
        var latitude = 48.80 + Double.random(in: 0..<0.1, using: &random)
        var longitude = 2.30 + Double.random(in: 0..<0.1, using: &random)
        var heading = Double.random(in: 0..<(2 * .pi), using: &random)
        var speed = 0.0
        var distance = 0.0
        var fuel = 0.0
        var time = startUTCMs + Int64.random(in: 500...3_000, using: &random)
        points = []
        points.reserveCapacity(count)
        for _ in 0..<count {
            let step: Int64 = Int.random(in: 0..<10, using: &random) == 0 ? 2_000 : 1_000
            let seconds = Double(step) / 1000
            speed = max(0, min(36, speed + Double.random(in: -2.5...3, using: &random)))
            heading += Double.random(in: -0.35...0.35, using: &random)
            let meters = speed * seconds
            latitude += meters * cos(heading) / 111_320
            longitude += meters * sin(heading) / (111_320 * 0.66)
            distance += meters
            fuel += 0.8 / 3_600 * seconds + meters * 6.5e-5
            time += step
            points.append(StoredTripPoint(
                session: session, utcMs: time, latitude: latitude, longitude: longitude, speedMetersPerSecond: speed,
                distanceMeters: distance, fuelLiters: fuel))
        }
    }

    var endUTCMs: Int64 { (points.last?.utcMs ?? startUTCMs) + 5_000 }

    /// The record a session machine would report at the end of this trip.
    func record(driver: DriverID) -> SessionRecord {
        var metrics = TripMetrics()
        metrics.distance = Meters(points.last?.distanceMeters ?? 0)
        metrics.fuel = Liters(points.last?.fuelLiters ?? 0)
        metrics.durationMs = endUTCMs - startUTCMs
        metrics.maximumSpeed = MetersPerSecond(points.map(\.speedMetersPerSecond).max() ?? 0)
        metrics.movingMs = Int64(points.filter { $0.speedMetersPerSecond > 1 }.count) * 1_000
        return SessionRecord(
            driver: driver, startedAt: LinkMilliseconds(0), endedAt: LinkMilliseconds(endUTCMs - startUTCMs), reason: .departed,
            stoppedAt: nil, driverLeftAt: nil, metrics: metrics)
    }

    /// Opens, fills (in `batch`-point writes) and closes the trip as a session of `driver`.
    @discardableResult
    func record(in store: TripStore, driver: DriverID, name: String, run: Int64, batch: Int = 100) throws -> SessionID {
        let id = try store.openSession(driver: driver, driverName: name, run: run, startLinkMs: 0, startUTCMs: startUTCMs)
        var stamped = points
        for index in stamped.indices { stamped[index].session = id }
        var start = 0
        while start < stamped.count {
            let end = min(stamped.count, start + batch)
            try store.appendTripPoints(stamped[start..<end])
            start = end
        }
        let startMs = startUTCMs
        try store.closeSession(id, record: record(driver: driver), utc: { startMs + $0.value })
        return id
    }
}

/// The quantized form of a point, for comparing stored points with generated ones.
func quantized(_ point: StoredTripPoint) -> TrackChunkCodec.Quantized { TrackChunkCodec.Quantized(point) }
