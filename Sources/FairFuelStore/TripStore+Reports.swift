import FairFuelCore
import FairFuelDomain
import FairFuelSQLite

/// What the pump said about consumption between two full fills, beside what the model estimated.
public struct FullFillPeriod: Sendable, Equatable {
    /// The earlier and the later full fill (UTC ms).
    public var fromUTCMs: Int64
    public var toUTCMs: Int64
    /// Litres pumped after the earlier full fill, up to and including the later one (partial fills between count).
    public var pumpedLiters: Double
    /// The stored estimates of the period (tracked sessions and untracked driving), as shown to the family.
    public var estimatedLiters: Double
    /// Distance measured by GNSS in the period (tracked and untracked).
    public var trackedMeters: Double
    /// Odometer distance, when both full fills have a reading.
    public var odometerKilometers: Double?

    public init(fromUTCMs: Int64, toUTCMs: Int64, pumpedLiters: Double, estimatedLiters: Double, trackedMeters: Double,
                odometerKilometers: Double?) {
        self.fromUTCMs = fromUTCMs
        self.toUTCMs = toUTCMs
        self.pumpedLiters = pumpedLiters
        self.estimatedLiters = estimatedLiters
        self.trackedMeters = trackedMeters
        self.odometerKilometers = odometerKilometers
    }

    /// The distance the real consumption is measured over: the odometer's when known, else GNSS.
    public var distanceMeters: Double { odometerKilometers.map { $0 * 1000 } ?? trackedMeters }

    /// Real L/100 km from the pump; nil when the car did not move.
    public var realLitersPer100km: Double? {
        distanceMeters > 0 ? pumpedLiters / distanceMeters * 100_000 : nil
    }

    /// The model's L/100 km over the GNSS distance; nil when nothing was tracked.
    public var estimatedLitersPer100km: Double? {
        trackedMeters > 0 ? estimatedLiters / trackedMeters * 100_000 : nil
    }
}

extension TripStore {
    /// The fuel the stored estimates say the car burnt in (from, to], and the distance it drove
    /// then: tracked sessions and untracked driving alike.
    public func estimatedFuel(fromUTCMs from: Int64, toUTCMs to: Int64) throws(StoreError) -> (liters: Double, meters: Double) {
        do {
            var liters = 0.0
            var meters = 0.0
            for trace in try fuelTraces(alsoCutAt: [from, to]) {
                liters += trace.fuel(from: from, to: to)
                meters += trace.distance(from: from, to: to)
            }
            let untracked = try connection.query("SELECT from_utc_ms, to_utc_ms, fuel_l, distance_m FROM untracked_driving") {
                ($0.int64(0), $0.int64(1), $0.double(2), $0.double(3))
            }
            for (start, end, fuel, distance) in untracked {
                liters += FuelTrace.overlap(from: start, to: end, liters: fuel, windowFrom: from, windowTo: to)
                meters += FuelTrace.overlap(from: start, to: end, liters: distance, windowFrom: from, windowTo: to)
            }
            return (liters, meters)
        } catch {
            throw StoreError(error)
        }
    }

    /// Every period between two consecutive full fills, oldest first.
    public func fullFillPeriods() throws(StoreError) -> [FullFillPeriod] {
        do {
            let refuels = try connection.query("SELECT at_utc_ms, liters, full_tank, odometer_km FROM refuels ORDER BY at_utc_ms") {
                ($0.int64(0), $0.double(1), $0.int(2) == 1, $0.optionalDouble(3))
            }
            guard refuels.filter(\.2).count >= 2 else { return [] }
            let traces = try fuelTraces()
            let untracked = try connection.query("SELECT from_utc_ms, to_utc_ms, fuel_l, distance_m FROM untracked_driving") {
                ($0.int64(0), $0.int64(1), $0.double(2), $0.double(3))
            }
            var periods: [FullFillPeriod] = []
            var previous: (at: Int64, odometer: Double?)?
            var pumped = 0.0
            for (at, liters, full, odometer) in refuels {
                guard let from = previous else {
                    if full { previous = (at, odometer) }
                    continue
                }
                pumped += liters
                guard full else { continue }
                var estimated = 0.0
                var meters = 0.0
                for trace in traces {
                    estimated += trace.fuel(from: from.at, to: at)
                    meters += trace.distance(from: from.at, to: at)
                }
                for (start, end, fuel, distance) in untracked {
                    estimated += FuelTrace.overlap(from: start, to: end, liters: fuel, windowFrom: from.at, windowTo: at)
                    meters += FuelTrace.overlap(from: start, to: end, liters: distance, windowFrom: from.at, windowTo: at)
                }
                var odometerKilometers: Double?
                if let a = from.odometer, let b = odometer, b > a { odometerKilometers = b - a }
                periods.append(FullFillPeriod(
                    fromUTCMs: from.at, toUTCMs: at, pumpedLiters: pumped, estimatedLiters: estimated, trackedMeters: meters,
                    odometerKilometers: odometerKilometers))
                previous = (at, odometer)
                pumped = 0
            }
            return periods
        } catch {
            throw StoreError(error)
        }
    }
}
