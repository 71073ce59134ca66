import FairFuelCore
import FairFuelDomain
import FairFuelSQLite

extension TripStore {
    /// The calibration learnt from full-tank refuels, oldest period first.
    public func calibrationHistory() throws(StoreError) -> [CalibrationRecord] {
        try wrap { () throws(SQLiteError) in
            try connection.query(
                "SELECT true_l, estimated_l, distance_m, ratio, outcome, scale_after FROM calibrations ORDER BY at_utc_ms, id"
            ) { row in
                CalibrationRecord(
                    trueLiters: Liters(row.double(0)), modelLiters: Liters(row.double(1)), distance: Meters(row.double(2)),
                    ratio: row.optionalDouble(3), outcome: CalibrationRecord.Outcome(rawValue: row.text(4) ?? "") ?? .invalid,
                    factorAfter: row.double(5))
            }
        }
    }

    /// Relearns the fuel scale from every full-to-full period: the true litres are what the
    /// pump put in after the earlier full fill up to and including the later one; the model's
    /// litres are the period's estimates divided by the scale each was made with. The same periods,
    /// by party, teach the car its drivers' factors (`refitDriverFactorsInTransaction`).
    func recomputeCalibrationInTransaction() throws {
        try connection.run("DELETE FROM calibrations")
        let refuels = try connection.query("SELECT id, at_utc_ms, liters, full_tank FROM refuels ORDER BY at_utc_ms") {
            ($0.int64(0), $0.int64(1), $0.double(2), $0.int(3) == 1)
        }
        let traces = try fuelTraces()
        let untracked = try connection.query("SELECT from_utc_ms, to_utc_ms, fuel_l, distance_m, fuel_scale FROM untracked_driving") {
            ($0.int64(0), $0.int64(1), $0.double(2), $0.double(3), $0.double(4))
        }
        var calibration = FuelCalibration()
        var previousFull: Int64?
        var pumped = 0.0
        var periods: [ConsumptionPeriod] = []
        for (id, at, liters, full) in refuels {
            guard let from = previousFull else {
                if full { previousFull = at }
                continue
            }
            pumped += liters
            guard full else { continue }
            var model = 0.0
            var modelByParty: [DriverID?: Double] = [:]
            var distance = 0.0
            for trace in traces {
                let liters = trace.fuel(from: from, to: at) / max(trace.fuelScale, 1e-6)
                model += liters
                modelByParty[trace.driver, default: 0] += liters
                distance += trace.distance(from: from, to: at)
            }
            for (start, end, fuel, meters, scale) in untracked {
                let liters = FuelTrace.overlap(from: start, to: end, liters: fuel, windowFrom: from, windowTo: at) / max(scale, 1e-6)
                model += liters
                modelByParty[nil, default: 0] += liters
                distance += FuelTrace.overlap(from: start, to: end, liters: meters, windowFrom: from, windowTo: at)
            }
            periods.append(ConsumptionPeriod(pumpedLiters: pumped, modelLiters: modelByParty.filter { $0.value > 0 }))
            calibration.record(trueLiters: Liters(pumped), modelLiters: Liters(model), distance: Meters(distance))
            let record = calibration.history.last!
            try connection.run(
                """
                INSERT INTO calibrations (refuel_id, at_utc_ms, true_l, estimated_l, scale_after, distance_m, ratio, outcome)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                .integer(id), .integer(at), .real(pumped), .real(model), .real(record.factorAfter), .real(distance),
                .optional(record.ratio), .text(record.outcome.rawValue))
            previousFull = at
            pumped = 0
        }
        try connection.run("UPDATE vehicle SET fuel_scale = ? WHERE id = 1", .real(calibration.factor))
        try refitDriverFactorsInTransaction(periods, lastFullUTCMs: previousFull)
    }
}
