import FairFuelCore
import FairFuelDomain
import FairFuelParsers
import FairFuelSQLite

/// The fields of a refuel a family gets wrong; nil leaves a field as it is.
public struct RefuelEdit: Sendable, Equatable {
    public var atUTCMs: Int64?
    public var liters: Double?
    public var cost: MinorUnits?
    public var fullTank: Bool?
    /// `.some(nil)` clears the reading.
    public var odometerKilometers: Double??

    public init(atUTCMs: Int64? = nil, liters: Double? = nil, cost: MinorUnits? = nil, fullTank: Bool? = nil,
                odometerKilometers: Double?? = nil) {
        self.atUTCMs = atUTCMs
        self.liters = liters
        self.cost = cost
        self.fullTank = fullTank
        self.odometerKilometers = odometerKilometers
    }

    public var isEmpty: Bool { atUTCMs == nil && liters == nil && cost == nil && fullTank == nil && odometerKilometers == nil }
}

extension TripStore {
    /// Corrects a refuel (refused, changing nothing, when settled, when the result is no refuel, or
    /// when it moves into a settled bill's period, even with `force`); every bill that moves is
    /// re-split and the calibration relearnt. `entryClockUTCMs`: as for `addRefuel` (the typos checked
    /// are those of what the edit changes).
    public func editRefuel(id: Int64, _ edit: RefuelEdit, force: Bool = false, entryClockUTCMs: Int64? = nil) throws(StoreError) -> BookChange {
        guard !edit.isEmpty else { throw .invalid("nothing to change: say --liters, --cost, --at, --full, --partial or --odometer-km") }
        // Read and checked in the update's write transaction: another writer's refuel cannot slip in between.
        return try rebook(force: force) {
            guard var refuel = try refuels().first(where: { $0.id == id })?.refuel else { throw StoreError.notFound("no refuel with id \(id)") }
            let vehicle = try vehicle()
            let previousAt = refuel.atUTCMs
            if let at = edit.atUTCMs { refuel.atUTCMs = at }
            if let liters = edit.liters { refuel.liters = liters }
            if let cost = edit.cost { refuel.cost = cost }
            if let full = edit.fullTank { refuel.fullTank = full }
            if let odometer = edit.odometerKilometers { refuel.odometerKilometers = odometer }
            // A year typed wrong (before the car's first record, or after now) is told as such, before what it
            // would upset (the odometer's order).
            if let at = edit.atUTCMs, at != previousAt {
                try refuseBeforeFirstRecord(refuel: id, atUTCMs: at)
                if let entryClockUTCMs, !force { try refuseFutureEntry(atUTCMs: at, entryClockUTCMs: entryClockUTCMs) }
            }
            var checked = refuel
            checked.currency = nil  // the bill keeps its own currency, whatever the vehicle's is now
            try validate(checked, vehicle: vehicle, excluding: id)
            try requireUnsettled(refuel: id)
            if let at = edit.atUTCMs, at != previousAt { try refuseInsideSettledPeriod("refuel \(id) moved", atUTCMs: at) }
            if let entryClockUTCMs, !force {
                try refuseEntryMistakes(
                    refuel, excluding: id, vehicle: vehicle, entryClockUTCMs: entryClockUTCMs, checkDate: false,
                    checkPrice: edit.cost != nil || edit.liters != nil || edit.atUTCMs != nil)
            }
            try connection.run(
                "UPDATE refuels SET at_utc_ms = ?, liters = ?, cost_minor = ?, full_tank = ?, odometer_km = ? WHERE id = ?",
                .integer(refuel.atUTCMs), .real(refuel.liters), .integer(refuel.cost.value), .int(refuel.fullTank ? 1 : 0),
                .optional(refuel.odometerKilometers), .integer(id))
            try enqueueRefuelMessage(id: id)
        }
    }

    /// Marks bills settled at `atUTCMs`; they never change again. Returns the ones newly settled
    /// (a bill settled already keeps its date).
    @discardableResult
    public func settleRefuels(_ ids: [Int64], atUTCMs: Int64) throws(StoreError) -> [Int64] {
        try write(durable: true) {
            var settled: [Int64] = []
            for id in ids {
                guard try book.settledUTCMs(ofRefuel: id) == nil else { continue }
                try book.setSettled(refuel: id, atUTCMs: atUTCMs)
                settled.append(id)
            }
            return settled
        }
    }

    /// Clears the settled mark of bills and re-splits them from the data, in one durable
    /// transaction, as a correction (`rebook`: their new split messages are queued for the uplink).
    /// Returns the bills unsettled (one that was not settled is left as it is and not listed) and
    /// what moved; an unknown id refuses the lot and changes nothing.
    public func unsettleRefuels(_ ids: [Int64]) throws(StoreError) -> (change: BookChange, unsettled: [Int64]) {
        var unsettled: [Int64] = []
        let change = try rebook(force: false) {
            unsettled.removeAll()  // a write retried after a full disk runs the body again
            for id in ids {
                guard try book.settledUTCMs(ofRefuel: id) != nil, !unsettled.contains(id) else { continue }
                try book.setSettled(refuel: id, atUTCMs: nil)
                unsettled.append(id)
            }
        }
        return (change, unsettled)
    }

    /// Sets who pays untracked driving from `fromUTCMs` on (nil: every bill not yet settled) and for
    /// bills to come, and re-splits the bills it applies to. Settled bills never change: those in
    /// the range are left out and listed. `vehicle`, when given, is written in the same transaction.
    public func setUntrackedPolicy(_ policy: UntrackedPolicy, fromUTCMs: Int64?, vehicle: VehicleProfile? = nil) throws(StoreError)
        -> (change: BookChange, applied: [Int64], settledLeftOut: [Int64])
    {
        var applied: [Int64] = []
        var leftOut: [Int64] = []
        let change = try rebook(force: false) {
            applied.removeAll()  // a write retried after a full disk runs the body again
            leftOut.removeAll()
            if var vehicle {
                vehicle.untrackedPolicy = policy
                try writeVehicleInTransaction(vehicle)
            } else {
                try connection.run("UPDATE vehicle SET untracked_policy = ? WHERE id = 1", .text(policy.rawValue))
            }
            let bills = try connection.query(
                "SELECT id, settled_utc_ms IS NOT NULL FROM refuels WHERE ?1 IS NULL OR at_utc_ms >= ?1 ORDER BY at_utc_ms",
                .optional(fromUTCMs)
            ) { ($0.int64(0), $0.int(1) == 1) }
            for (id, settled) in bills {
                if settled {
                    if fromUTCMs != nil { leftOut.append(id) }
                    continue
                }
                try connection.run("UPDATE refuels SET untracked_policy = ? WHERE id = ?", .text(policy.rawValue), .integer(id))
                applied.append(id)
            }
        }
        return (change, applied, leftOut)
    }
}
