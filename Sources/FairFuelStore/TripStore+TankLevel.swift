import FairFuelCore
import FairFuelDomain
import FairFuelSQLite

extension TripStore {
    /// The estimated litres in the tank now, by `TankLevel`'s rule; nil before the first full-tank refuel.
    ///
    /// The driving is the split's: each session's and each untracked drive's stored litres (the
    /// model's estimate times the calibration factor it was made with), cut at each refuel's
    /// moment, so the level falls by what the bills are divided by. Reads only the refuels from
    /// the latest full one on and the driving that may reach past it.
    public func estimatedTankLiters() throws(StoreError) -> Double? {
        // One read transaction (or the caller's): the refuels and the driving are one state of the store.
        let read = { (body: () throws -> Double?) throws -> Double? in
            try self.connection.isInTransaction ? body() : self.connection.transaction("DEFERRED", body)
        }
        do {
            return try read { () throws -> Double? in
                guard let lastFull = try connection.scalarInt(
                    "SELECT at_utc_ms FROM refuels WHERE full_tank = 1 ORDER BY at_utc_ms DESC LIMIT 1")
                else { return nil }
                let capacity = try connection.query("SELECT tank_l FROM vehicle WHERE id = 1") { $0.double(0) }.first ?? 0
                let refuels = try connection.query(
                    "SELECT at_utc_ms, liters, full_tank FROM refuels WHERE at_utc_ms >= ? ORDER BY at_utc_ms", .integer(lastFull)
                ) { TankLevel.Refuel(atUTCMs: $0.int64(0), liters: $0.double(1), fullTank: $0.int(2) == 1) }
                let traces = try fuelTraces(reachingPast: lastFull)
                let untracked = try connection.query(
                    "SELECT from_utc_ms, to_utc_ms, fuel_l FROM untracked_driving WHERE to_utc_ms > ?", .integer(lastFull)
                ) { ($0.int64(0), $0.int64(1), $0.double(2)) }
                let steps = TankLevel.steps(refuels: refuels) { after, upTo in
                    // Summed in the order read, as the split sums a bill's windows.
                    traces.reduce(0) { $0 + $1.fuel(from: after, to: upTo) }
                        + untracked.reduce(0) { $0 + FuelTrace.overlap(from: $1.0, to: $1.1, liters: $1.2, windowFrom: after, windowTo: upTo) }
                }
                return TankLevel.liters(capacity: capacity, after: steps)
            }
        } catch {
            throw StoreError(error)
        }
    }
}
