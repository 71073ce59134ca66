import FairFuelCore
import FairFuelDomain
import FairFuelSQLite

extension TripStore {
    /// Records that the tank was full at `atUTCMs` (the technician filled up just before installing,
    /// or the family did on install day): a fuel-log entry with no litres and no cost. The bill after
    /// it is an ordinary one, nothing "before tracking"; calibration measures from it. Refused,
    /// changing nothing, when a mark is recorded already, when a full fill-up comes at or before it
    /// (the tank's level is known from that one), at the moment of a recorded refuel, or inside a
    /// settled bill's period. `force` as for `addRefuel` (a settled bill the mark would move is kept).
    public func addBaselineMark(atUTCMs: Int64, enteredUTCMs: Int64? = nil, force: Bool = false, entryClockUTCMs: Int64? = nil) throws(StoreError)
        -> (id: Int64, change: BookChange)
    {
        var id: Int64 = 0
        let change = try rebook(force: force) {
            let vehicle = try vehicle()
            if let mark = try connection.query("SELECT id, at_utc_ms FROM refuels WHERE baseline = 1", row: { ($0.int64(0), $0.int64(1)) }).first {
                throw StoreError.invalid(
                    "a baseline mark is recorded already (refuel \(mark.0), \(UTCTimestamp(millisecondsSinceEpoch: mark.1).iso8601)); "
                        + "remove it first (`fairfuel refuel remove \(mark.0)`) to move it; nothing was changed")
            }
            let fullBefore = try connection.query(
                "SELECT id, at_utc_ms FROM refuels WHERE full_tank = 1 AND at_utc_ms <= ? ORDER BY at_utc_ms LIMIT 1", .integer(atUTCMs)
            ) { ($0.int64(0), $0.int64(1)) }
            if let (full, at) = fullBefore.first {
                throw StoreError.invalid(
                    "the tank was filled up at \(UTCTimestamp(millisecondsSinceEpoch: at).iso8601) (refuel \(full)), before this mark: "
                        + "that full fill-up is where tracking's bills start, so a baseline mark after it says nothing; nothing was changed")
            }
            let near = try connection.scalarInt(
                "SELECT id FROM refuels WHERE at_utc_ms > ?1 - ?2 AND at_utc_ms < ?1 + ?2 LIMIT 1",
                .integer(atUTCMs), .integer(Self.duplicateWindowMs))
            if let near { throw StoreError.invalid("refuel \(near) is recorded at that moment; a baseline mark is a moment of its own") }
            try refuseInsideSettledPeriod("a baseline mark", atUTCMs: atUTCMs)
            if let entryClockUTCMs, !force { try refuseFutureEntry(atUTCMs: atUTCMs, entryClockUTCMs: entryClockUTCMs) }
            try connection.run(
                """
                INSERT INTO refuels (at_utc_ms, liters, cost_minor, full_tank, currency, entered_utc_ms, untracked_policy, baseline,
                                     split_rule)
                VALUES (?, 0, 0, 1, ?, ?, ?, 1, 'baseline')
                """,
                .integer(atUTCMs), .text(vehicle.currency), .optional(enteredUTCMs), .text(vehicle.untrackedPolicy.rawValue))
            id = connection.lastInsertRowID
            try enqueueRefuelMessage(id: id)
        }
        return (id, change)
    }

    /// Refuses a refuel (`refuel`, or refuel `excluding` corrected into it) that a baseline mark
    /// makes no sense with: a mark is corrected by removing it and adding it again, and a full
    /// fill-up at or before the mark would make the mark say nothing.
    func refuseAgainstBaselineMark(_ refuel: RefuelInput, excluding: Int64?) throws(StoreError) {
        if refuel.baseline {
            let id = excluding.map { " \($0)" } ?? ""
            throw .invalid(
                "refuel\(id) is the baseline mark: it has no litres or cost to correct; remove it (`fairfuel refuel remove\(id)`) "
                    + "and add it again (`fairfuel refuel add --baseline --at TIME`)")
        }
        guard refuel.fullTank else { return }
        let marks = try wrap { () throws(SQLiteError) in
            try connection.query(
                "SELECT id, at_utc_ms FROM refuels WHERE baseline = 1 AND at_utc_ms >= ? AND (?2 IS NULL OR id != ?2)",
                .integer(refuel.atUTCMs), .optional(excluding)
            ) { ($0.int64(0), $0.int64(1)) }
        }
        guard let (mark, at) = marks.first else { return }
        throw .invalid(
            "a baseline mark (refuel \(mark)) says the tank was first known full at \(UTCTimestamp(millisecondsSinceEpoch: at).iso8601); "
                + "a full fill-up before it would make the mark say nothing. Enter it as --partial, or remove the mark first "
                + "(`fairfuel refuel remove \(mark)`); nothing was changed")
    }
}
