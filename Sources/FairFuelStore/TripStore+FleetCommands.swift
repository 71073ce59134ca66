import FairFuelCore
import FairFuelDomain
import FairFuelSQLite

/// What applying a fleet command did.
public enum FleetCommandApplication: Sendable, Equatable {
    /// Applied now; `summary` says what changed, for the hub.
    case applied(summary: String)
    /// Its id was applied before: nothing changed.
    case alreadyApplied
}

extension TripStore {
    /// How long applied command ids are kept: a duplicate delivered later than this (a broker that
    /// kept a message for months) would be applied again, so it is far longer than any session lives.
    public static let fleetCommandRetentionMs: Int64 = 180 * 86_400_000
    /// At most this many ids are kept whatever their age: a flood of valid commands cannot grow the store.
    public static let fleetCommandMaximumKept = 10_000

    /// Applies `command` through the same operations and checks as the CLI (`refuel add|edit|remove`,
    /// `trips assign|delete`, `refuel settle|unsettle`, `refuel add --baseline`), in one durable transaction with the record
    /// of its id: a refusal throws and changes nothing, a duplicate id changes nothing.
    /// `receivedUTCMs` stamps the id (retention) and is the clock a refuel's date is checked against (the
    /// car's, not the hub's); a settle is stamped with the command's issue time.
    public func applyFleetCommand(_ command: FleetCommand, receivedUTCMs: Int64) throws(StoreError) -> FleetCommandApplication {
        try write(durable: true) { () throws -> FleetCommandApplication in
            if try connection.scalarInt("SELECT 1 FROM fleet_commands_applied WHERE id = ?", .text(command.id)) != nil {
                return .alreadyApplied
            }
            // Its id may have been forgotten: a command this old could be a recording played again.
            if command.issuedUTCMs < receivedUTCMs - Self.fleetCommandRetentionMs {
                throw StoreError.invalid(
                    "the command was issued \(UTCTimestamp(millisecondsSinceEpoch: command.issuedUTCMs).iso8601), longer ago than commands are remembered; send it again")
            }
            let summary = try perform(command, receivedUTCMs: receivedUTCMs)
            try connection.run(
                "INSERT INTO fleet_commands_applied (id, applied_utc_ms) VALUES (?, ?)", .text(command.id), .integer(receivedUTCMs))
            try connection.run(
                """
                DELETE FROM fleet_commands_applied WHERE applied_utc_ms < ?1 OR id IN (
                    SELECT id FROM fleet_commands_applied ORDER BY applied_utc_ms DESC, id DESC LIMIT -1 OFFSET ?2)
                """,
                .integer(receivedUTCMs - Self.fleetCommandRetentionMs), .integer(Int64(Self.fleetCommandMaximumKept)))
            return .applied(summary: summary)
        }
    }

    /// Whether a command with `id` was applied (and is still remembered).
    public func fleetCommandApplied(id: String) throws(StoreError) -> Bool {
        try wrap { () throws(SQLiteError) in
            try connection.scalarInt("SELECT 1 FROM fleet_commands_applied WHERE id = ?", .text(id)) != nil
        }
    }

    /// The current driver called `name` (any case), with the CLI's refusals for an unknown or removed one.
    public func currentDriver(named name: String) throws(StoreError) -> DriverRecord {
        let all = try drivers(includingRemoved: true)
        if let driver = all.first(where: { !$0.removed && $0.name.lowercased() == name.lowercased() }) { return driver }
        if all.contains(where: { $0.name.lowercased() == name.lowercased() }) {
            throw .invalid("\(name) was removed and cannot be given trips")
        }
        throw .notFound("no driver named '\(name)'")
    }

    private func perform(_ command: FleetCommand, receivedUTCMs: Int64) throws -> String {
        switch command.operation {
        case let .refuelAdd(fields):
            try requireOwnCurrency(fields.currency)
            let input = RefuelInput(
                atUTCMs: fields.atUTCMs, liters: fields.liters, cost: MinorUnits(fields.costMinorUnits), fullTank: fields.fullTank,
                odometerKilometers: fields.odometerKilometers, fuelType: fields.fuelType, station: fields.station, note: fields.note,
                enteredUTCMs: command.issuedUTCMs)
            let (id, _) = try addRefuelShowingChange(input, force: command.force, entryClockUTCMs: receivedUTCMs)
            return "refuel \(id) added"
        case let .refuelEdit(refuel, changes):
            if changes.costMinorUnits != nil { try requireOwnCurrency(changes.currency) }
            let edit = RefuelEdit(
                atUTCMs: changes.atUTCMs, liters: changes.liters, cost: changes.costMinorUnits.map(MinorUnits.init),
                fullTank: changes.fullTank, odometerKilometers: changes.odometerKilometers.map { .some($0) } ?? nil)
            _ = try editRefuel(id: refuel, edit, force: command.force, entryClockUTCMs: receivedUTCMs)
            return "refuel \(refuel) corrected"
        case let .refuelRemove(refuel):
            _ = try removeRefuel(id: refuel, force: command.force)
            return "refuel \(refuel) removed"
        case let .tripAssign(trips, driverName):
            var references: [TripReference] = []
            for trip in trips {
                guard let reference = TripReference(trip) else { throw StoreError.invalid("'\(trip)' is not a trip id (42, or u7)") }
                if !references.contains(reference) { references.append(reference) }
            }
            let driver = try currentDriver(named: driverName)
            let result = try assignTrips(references, to: driver.id, force: command.force)
            return "\(result.trips.count) trip(s) given to \(driver.name)"
        case let .tripMove(trip, driverName):
            // One rule with `trips assign`: a move is its assign of one recorded trip.
            guard let reference = TripReference(trip) else { throw StoreError.invalid("'\(trip)' is not a trip id (42, or u7)") }
            guard case .session = reference else {
                throw StoreError.invalid("\(trip) is untracked driving, not a recorded trip: give it to a driver with trip_assign")
            }
            let driver = try currentDriver(named: driverName)
            let result = try assignTrips([reference], to: driver.id, force: command.force)
            let previous = result.trips.first?.previousDriverName.map { " from \($0)" } ?? ""
            return "trip \(trip) moved\(previous) to \(driver.name)"
        case let .baselineMark(at):
            let (id, _) = try addBaselineMark(
                atUTCMs: at ?? command.issuedUTCMs, enteredUTCMs: command.issuedUTCMs, force: command.force, entryClockUTCMs: receivedUTCMs)
            return "refuel \(id): baseline mark"
        case let .tripDelete(trip):
            guard let reference = TripReference(trip) else { throw StoreError.invalid("'\(trip)' is not a trip id (42, or u7)") }
            _ = try deleteTrip(reference, force: command.force)
            return "trip \(trip) deleted"
        case let .settle(refuels):
            let settled = try settleRefuels(refuels, atUTCMs: command.issuedUTCMs)
            return "settled: \(settled.map(String.init).joined(separator: ", "))"
        case let .unsettle(refuels):
            let result = try unsettleRefuels(refuels)
            return "unsettled: \(result.unsettled.map(String.init).joined(separator: ", "))"
        case let .resend(since):
            let queued = try requeueRecordMessages(sinceMessageID: since)
            return "\(queued) record message(s) queued again"
        }
    }

    /// Refuses a cost in another currency than the book's (or in none): the hub read its minor
    /// units for that currency, so the same number here could be 100 times the bill.
    private func requireOwnCurrency(_ currency: String?) throws {
        let own = try vehicle().currency
        guard let currency else { throw StoreError.invalid("the command's cost does not say its currency; this car's book is in \(own)") }
        guard currency == own else {
            throw StoreError.invalid("the command's cost is in \(currency), this car's book in \(own): nothing changed; send it again in \(own)")
        }
    }

    /// Queues again the current message of every record whose last message came after outbox
    /// message `since` (0: every record the store holds), so that a hub that started late or lost
    /// its store gets the book. Each goes up as the record's next revision. Returns how many.
    func requeueRecordMessages(sinceMessageID since: Int64) throws -> Int {
        guard uplink != nil else { throw StoreError.invalid("this car has no [uplink]: nothing to resend") }
        let before = try connection.scalarInt("SELECT COALESCE(MAX(id), 0) FROM outbox") ?? 0
        var trips = Set(try connection.query(
            "SELECT record_id FROM outbox_revisions WHERE topic_kind = 'trip' AND (?1 = 0 OR last_message_id IS NULL OR last_message_id > ?1)",
            .integer(since)) { $0.int64(0) })
        var refuels = Set(try connection.query(
            "SELECT record_id FROM outbox_revisions WHERE topic_kind IN ('refuel', 'split') AND (?1 = 0 OR last_message_id IS NULL OR last_message_id > ?1)",
            .integer(since)) { $0.int64(0) })
        if since == 0 {
            trips.formUnion(try connection.query("SELECT id FROM sessions WHERE end_reason IS NOT NULL") { $0.int64(0) })
            refuels.formUnion(try connection.query("SELECT id FROM refuels") { $0.int64(0) })
        }
        let liveTrips = Set(try connection.query("SELECT id FROM sessions WHERE end_reason IS NOT NULL") { $0.int64(0) })
        let liveRefuels = Set(try connection.query("SELECT id FROM refuels") { $0.int64(0) })
        for id in trips.sorted() {
            if liveTrips.contains(id) { try enqueueTripMessage(session: id) } else { try enqueueTripDeletedMessage(session: id) }
        }
        for id in refuels.sorted() {
            if liveRefuels.contains(id) { try enqueueRefuelMessage(id: id) } else { try enqueueRefuelRemovedMessage(id: id) }
        }
        try enqueueSplitMessages(refuels: refuels.intersection(liveRefuels))
        return Int(try connection.scalarInt("SELECT COUNT(*) FROM outbox WHERE id > ?", .integer(before)) ?? 0)
    }
}
