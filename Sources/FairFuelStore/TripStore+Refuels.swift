import FairFuelCore
import FairFuelDomain
import FairFuelParsers
import FairFuelSQLite

/// A refuel as entered by the family: one line of the fuel log.
public struct RefuelInput: Sendable, Equatable {
    public var atUTCMs: Int64
    public var liters: Double
    public var cost: MinorUnits
    public var fullTank: Bool
    public var odometerKilometers: Double?
    /// petrol, diesel or lpg; nil: not said (the vehicle's).
    public var fuelType: String?
    public var station: String?
    public var note: String?
    /// ISO 4217 code of `cost`; nil when adding: the vehicle's.
    public var currency: String?
    /// When it was typed in (UTC ms); nil: before the fuel log recorded it.
    public var enteredUTCMs: Int64?
    /// Who pays this bill's untracked driving; nil when adding: the vehicle's policy.
    public var untrackedPolicy: UntrackedPolicy?
    /// When the family settled the bill (UTC ms); nil: open. A settled bill never changes.
    public var settledUTCMs: Int64?
    /// A baseline mark, not a refuel: the tank was known full then (no litres, no cost); `addBaselineMark`.
    public var baseline: Bool

    public init(atUTCMs: Int64, liters: Double, cost: MinorUnits, fullTank: Bool = true, odometerKilometers: Double? = nil,
                fuelType: String? = nil, station: String? = nil, note: String? = nil, currency: String? = nil,
                enteredUTCMs: Int64? = nil, untrackedPolicy: UntrackedPolicy? = nil, settledUTCMs: Int64? = nil, baseline: Bool = false) {
        self.atUTCMs = atUTCMs
        self.liters = liters
        self.cost = cost
        self.fullTank = fullTank
        self.odometerKilometers = odometerKilometers
        self.fuelType = fuelType
        self.station = station
        self.note = note
        self.currency = currency
        self.enteredUTCMs = enteredUTCMs
        self.untrackedPolicy = untrackedPolicy
        self.settledUTCMs = settledUTCMs
        self.baseline = baseline
    }
}

/// A stored refuel with the split of its bill.
public struct RefuelSplit: Sendable, Equatable {
    public var id: Int64
    public var refuel: RefuelInput
    public var shares: [Share]
    /// The rule the shares were made by; nil: not known (a bill read from a USB pull).
    public var rule: SplitRule?

    public init(id: Int64, refuel: RefuelInput, shares: [Share], rule: SplitRule? = nil) {
        self.id = id
        self.refuel = refuel
        self.shares = shares
        self.rule = rule
    }

    public struct Share: Sendable, Equatable {
        /// nil: untracked driving.
        public var driver: DriverID?
        public var driverName: String?
        public var fuelLiters: Double
        public var cost: MinorUnits
        /// The first bill's remainder: fuel burnt before tracking began (`SplitRule.firstFill`).
        public var beforeTracking: Bool = false

        public init(driver: DriverID?, driverName: String?, fuelLiters: Double, cost: MinorUnits, beforeTracking: Bool = false) {
            self.driver = driver
            self.driverName = driverName
            self.fuelLiters = fuelLiters
            self.cost = cost
            self.beforeTracking = beforeTracking
        }

        /// Who and how much: what settling a bill freezes (litres may move by rounding).
        var moneyKey: String { "\(driver?.rawValue ?? -1):\(beforeTracking):\(cost.value)" }
    }
}

extension TripStore {
    /// Stores a refuel and recomputes every split; nonsense is refused and nothing changes, and so
    /// is a refuel inside a settled bill's period, even with `force` (its fuel would be billed twice).
    /// With `force`, a refuel that would otherwise move a settled bill's shares (a new first full
    /// fill-up moves the baseline) is stored and that bill is kept as it is.
    /// `entryClockUTCMs`: the clock of the side a person entered it on (the CLI's, the web request's,
    /// the car's receipt of a hub command), which a typed refuel is checked against for typos
    /// (`refuseEntryMistakes`, held back unless `force`); nil for a history nobody typed (demos, imports).
    @discardableResult
    public func addRefuel(_ refuel: RefuelInput, force: Bool = false, entryClockUTCMs: Int64? = nil) throws(StoreError) -> Int64 {
        try addRefuelShowingChange(refuel, force: force, entryClockUTCMs: entryClockUTCMs).id
    }

    /// `addRefuel`, with the bills it moved (the new one among them, with no shares before).
    ///
    /// The checks run in the insert's write transaction (BEGIN IMMEDIATE, waiting up to the
    /// busy timeout for another writer): of two refuels entered at once, the second sees the
    /// first and is refused by the same rule as when they come one after the other.
    public func addRefuelShowingChange(
        _ refuel: RefuelInput, force: Bool = false, entryClockUTCMs: Int64? = nil
    ) throws(StoreError) -> (id: Int64, change: BookChange) {
        var id: Int64 = 0
        let change = try rebook(force: force) {
            let vehicle = try vehicle()
            try validate(refuel, vehicle: vehicle)
            try refuseInsideSettledPeriod("a refuel", atUTCMs: refuel.atUTCMs)
            if let entryClockUTCMs, !force {
                try refuseEntryMistakes(refuel, excluding: nil, vehicle: vehicle, entryClockUTCMs: entryClockUTCMs, checkDate: true, checkPrice: true)
            }
            try connection.run(
                """
                INSERT INTO refuels (at_utc_ms, liters, cost_minor, full_tank, odometer_km, fuel_type, station, note, currency,
                                     entered_utc_ms, untracked_policy)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                .integer(refuel.atUTCMs), .real(refuel.liters), .integer(refuel.cost.value), .int(refuel.fullTank ? 1 : 0),
                .optional(refuel.odometerKilometers), .optional(refuel.fuelType), .optional(refuel.station), .optional(refuel.note),
                .text(refuel.currency ?? vehicle.currency), .optional(refuel.enteredUTCMs),
                .text((refuel.untrackedPolicy ?? vehicle.untrackedPolicy).rawValue))
            id = connection.lastInsertRowID
            try enqueueRefuelMessage(id: id)
        }
        return (id, change)
    }

    /// Refuels closer than this to a recorded one are the same refuel entered twice.
    static var duplicateWindowMs: Int64 { BookRepository.duplicateWindowMs }

    /// The refuel recorded within `duplicateWindowMs` of `atUTCMs`, which another refuel there
    /// would repeat; nil when there is none. `excluding`: the refuel being edited.
    public func refuelRecorded(near atUTCMs: Int64, excluding: Int64? = nil) throws(StoreError) -> Int64? {
        try book.refuelRecorded(near: atUTCMs, excluding: excluding)
    }

    /// Refuses what cannot be a refuel of this vehicle, with a message for the person who typed it.
    /// `excluding`: the refuel being edited, which is no duplicate or neighbour of itself.
    func validate(_ refuel: RefuelInput, vehicle: VehicleProfile, excluding: Int64? = nil) throws(StoreError) {
        try refuseAgainstBaselineMark(refuel, excluding: excluding)
        guard refuel.liters.isFinite, refuel.liters > 0 else { throw .invalid("litres must be more than 0") }
        // 5 %: a tank takes a little more than its nominal size (filler neck, pump overshoot).
        guard refuel.liters <= vehicle.tankLiters * 1.05 else {
            throw .invalid("\(refuel.liters) L is more than the \(vehicle.tankLiters) L tank")
        }
        guard refuel.cost.value >= 0 else { throw .invalid("the cost cannot be negative") }
        if let fuel = refuel.fuelType {
            guard ["petrol", "diesel", "lpg"].contains(fuel) else { throw .invalid("fuel '\(fuel)' is not petrol, diesel or lpg") }
            guard fuel == vehicle.fuelType else {
                throw .invalid("this vehicle runs on \(vehicle.fuelType), not \(fuel) (change it with `fairfuel vehicle set --fuel`)")
            }
        }
        if let currency = refuel.currency, currency != vehicle.currency {
            throw .invalid("the bill is in \(currency) but the vehicle's currency is \(vehicle.currency)")
        }
        for (name, text) in [("station", refuel.station), ("note", refuel.note)] {
            guard let text else { continue }
            guard text.unicodeScalars.count <= 200 else { throw .invalid("the \(name) is longer than 200 characters") }
            guard !text.unicodeScalars.contains(where: { $0.value < 0x20 }) else { throw .invalid("the \(name) contains control characters") }
        }
        if try refuelRecorded(near: refuel.atUTCMs, excluding: excluding) != nil {
            throw .invalid("a refuel at that moment is already recorded")
        }
        guard let odometer = refuel.odometerKilometers else { return }
        guard odometer.isFinite, odometer >= 0, odometer < 10_000_000 else {
            throw .invalid("the odometer reading \(odometer) km is not a reading")
        }
        let neighbours = try wrap { () throws(SQLiteError) in
            try connection.query(
                """
                SELECT * FROM (SELECT at_utc_ms, odometer_km FROM refuels WHERE odometer_km IS NOT NULL AND at_utc_ms < ?1
                               AND (?2 IS NULL OR id != ?2) ORDER BY at_utc_ms DESC LIMIT 1)
                UNION ALL
                SELECT * FROM (SELECT at_utc_ms, odometer_km FROM refuels WHERE odometer_km IS NOT NULL AND at_utc_ms > ?1
                               AND (?2 IS NULL OR id != ?2) ORDER BY at_utc_ms LIMIT 1)
                """,
                .integer(refuel.atUTCMs), .optional(excluding)
            ) { ($0.int64(0), $0.double(1)) }
        }
        for (at, reading) in neighbours {
            let backwards = at < refuel.atUTCMs ? reading > odometer : reading < odometer
            if backwards {
                let when = UTCTimestamp(millisecondsSinceEpoch: at).iso8601
                throw .invalid("the odometer goes backwards: \(odometer) km here, \(reading) km at the refuel of \(when)")
            }
        }
    }

    /// Removes a refuel; the splits follow. A settled bill is never removed; with `force`, a removal
    /// that would move another settled bill's shares goes ahead and keeps that bill as it is: the
    /// next bill's period widens over the removed one's, so no fuel is counted twice, and the settled
    /// bill keeps the split the family paid by.
    @discardableResult
    public func removeRefuel(id: Int64, force: Bool = false) throws(StoreError) -> BookChange {
        try rebook(force: force) {
            try requireUnsettled(refuel: id)
            try connection.run("DELETE FROM refuels WHERE id = ?", .integer(id))
            try enqueueRefuelRemovedMessage(id: id)
        }
    }

    /// The fuel log, oldest first.
    public func refuels() throws(StoreError) -> [(id: Int64, refuel: RefuelInput)] {
        try book.refuels()
    }

    /// Every refuel in time order with its shares (a baseline mark has none).
    public func splits() throws(StoreError) -> [RefuelSplit] {
        try book.splits()
    }

    /// Recomputes every unsettled bill's shares; settled bills keep theirs.
    public func recomputeSplits() throws(StoreError) {
        try write { try recomputeSplitsInTransaction() }
    }

    /// Recomputes the shares of every bill that is not settled: each covers the fuel since the
    /// previous refuel, cutting sessions at the refuel's moment, under the bill's own untracked
    /// policy. The bills up to and including the first full fill-up were paid before the tank's
    /// level was known: each party pays their estimated fuel at the bill's price per litre and the
    /// rest was burnt before tracking began (`FirstFillSplit`, docs/bills.md); after a baseline
    /// mark, every bill is ordinary. An open bill weighs each party's estimate by the factor the car
    /// learnt for it, when adopted (`refitDriverFactorsInTransaction`). Each bill records its rule.
    /// Settled bills keep their shares and rule; returns what the data would make of each of them
    /// without learnt factors (`dryRun`: computes that and writes nothing).
    @discardableResult
    func recomputeSplitsInTransaction(dryRun: Bool = false) throws -> [Int64: [String]] {
        let vehiclePolicy = try connection.scalarText("SELECT untracked_policy FROM vehicle WHERE id = 1") ?? "owner"
        let all = try connection.query(
            """
            SELECT id, at_utc_ms, cost_minor, full_tank, untracked_policy, settled_utc_ms, liters, baseline
            FROM refuels ORDER BY at_utc_ms
            """
        ) {
            (id: $0.int64(0), at: $0.int64(1), cost: MinorUnits($0.int64(2)), full: $0.int(3) == 1,
             policy: UntrackedPolicy(rawValue: $0.text(4) ?? vehiclePolicy) ?? .owner, settled: $0.optionalInt64(5) != nil,
             liters: $0.double(6), mark: $0.int(7) == 1)
        }
        // A baseline mark is full too: the first full entry ends the bills paid before the level was known.
        let firstFull = all.firstIndex(where: \.full) ?? all.count
        let traces = try fuelTraces()
        let untracked = try connection.query("SELECT from_utc_ms, to_utc_ms, fuel_l FROM untracked_driving") {
            ($0.int64(0), $0.int64(1), $0.double(2))
        }
        var names: [DriverID: String] = [:]
        for trace in traces where names[trace.driver] == nil { names[trace.driver] = trace.driverName }
        // What the car has learnt of its drivers (adopted fits only); settled bills keep the split they were paid by.
        let learned = try appliedDriverFactorsInTransaction()
        var settledWouldBe: [Int64: [String]] = [:]
        var previous = Int64.min
        // What a first-fill bill's litres could not cover, charged on the next one (never past a mark).
        var carried: [FuelShare] = []
        for (index, bill) in all.enumerated() {
            defer { previous = bill.at }
            let (fuel, windowNames) = Self.billFuel(
                from: previous, to: bill.at, traces: traces, untracked: untracked, learned: bill.settled ? [:] : learned)
            let row = { (share: CostShare) in
                RefuelSplit.Share(
                    driver: share.driver, driverName: share.driver.flatMap { windowNames[$0] ?? names[$0] },
                    fuelLiters: share.fuel.value, cost: share.cost)
            }
            var rows: [RefuelSplit.Share] = []
            let rule: SplitRule
            if bill.mark {
                rule = .baseline
                carried = []
            } else if index <= firstFull {
                rule = .firstFill
                let split = FirstFillSplit(bill: bill.cost, pumped: Liters(bill.liters), fuel: fuel + carried, untracked: bill.policy)
                carried = split.carried
                rows = split.shares.map(row)
                if split.beforeTrackingCost.value > 0 || split.beforeTrackingFuel.value > 0 {
                    rows.append(RefuelSplit.Share(
                        driver: nil, driverName: nil, fuelLiters: split.beforeTrackingFuel.value, cost: split.beforeTrackingCost,
                        beforeTracking: true))
                }
            } else {
                rule = .ordinary
                rows = CostSplitter.split(bill: bill.cost, fuel: fuel, untracked: bill.policy).map(row)
            }
            if bill.settled {
                settledWouldBe[bill.id] = rows.map(\.moneyKey)
                continue
            }
            if dryRun { continue }
            try connection.run("DELETE FROM refuel_shares WHERE refuel_id = ?", .integer(bill.id))
            try connection.run("UPDATE refuels SET split_rule = ? WHERE id = ?", .text(rule.rawValue), .integer(bill.id))
            for share in rows {
                try connection.run(
                    """
                    INSERT INTO refuel_shares (refuel_id, driver_id, driver_name, fuel_l, cost_minor, before_tracking)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                    .integer(bill.id), .optional(share.driver?.rawValue), .optional(share.driverName), .real(share.fuelLiters),
                    .integer(share.cost.value), .int(share.beforeTracking ? 1 : 0))
            }
        }
        // Shares of a refuel that no longer exists (the cascade needs foreign keys on).
        if !dryRun { try connection.run("DELETE FROM refuel_shares WHERE refuel_id NOT IN (SELECT id FROM refuels)") }
        return settledWouldBe
    }

    /// Each party's fuel in a bill's window (`from`, `to`]: the drivers' from their traces, untracked
    /// driving's (driver nil) by its overlap, each weighted by the factor the car learnt for it (`learned`:
    /// empty for a settled bill); with the drivers' names as their traces have them. One rule for the
    /// bills and the open bill (`openBill`).
    static func billFuel(
        from: Int64, to: Int64, traces: [FuelTrace], untracked: [(Int64, Int64, Double)], learned: [DriverID?: Double]
    ) -> (fuel: [FuelShare], names: [DriverID: String]) {
        var fuelByDriver: [DriverID: (name: String, liters: Double)] = [:]
        for trace in traces {
            let liters = trace.fuel(from: from, to: to)
            guard liters > 0 else { continue }
            fuelByDriver[trace.driver, default: (trace.driverName, 0)].liters += liters
        }
        var untrackedLiters = 0.0
        for (start, end, liters) in untracked {
            untrackedLiters += FuelTrace.overlap(from: start, to: end, liters: liters, windowFrom: from, windowTo: to)
        }
        var fuel = fuelByDriver.map { FuelShare(driver: $0.key, fuel: Liters($0.value.liters)) }
        if untrackedLiters > 0 { fuel.append(FuelShare(driver: nil, fuel: Liters(untrackedLiters))) }
        if !learned.isEmpty {
            fuel = fuel.map { FuelShare(driver: $0.driver, fuel: Liters($0.fuel.value * (learned[$0.driver] ?? 1))) }
        }
        return (fuel, fuelByDriver.mapValues(\.name))
    }

    /// The stored shares of one bill, in the order `splits()` gives them.
    func shares(ofRefuel id: Int64) throws(SQLiteError) -> [RefuelSplit.Share] {
        try book.shares(ofRefuel: id)
    }

    /// Sessions that started at or before a window's start and are read in case they drive into it.
    static var sessionsStartedBeforeAWindow: Int { BookRepository.sessionsStartedBeforeAWindow }

    /// Each session's fuel as a running total over UTC time.
    ///
    /// Only a session with a refuel inside its span is ever cut, so only those have their
    /// points decoded; any other is its start and its last point, which gives the same
    /// litres and metres for every window that does not cut it.
    /// With `session`, that session's trace alone, whoever drove it (a removed driver's is id 0).
    /// `alsoCutAt`: other moments the traces must be exact at (not only the refuels').
    /// `reachingPast`: only the sessions that may have driven after that moment (those that started
    /// after it, and the last few that started at or before it), cut only at refuels from it on:
    /// exact for every window that begins there, without reading the history before it.
    func fuelTraces(session only: Int64? = nil, alsoCutAt extraCuts: [Int64] = [], reachingPast since: Int64? = nil) throws -> [FuelTrace] {
        try book.fuelTraces(session: only, alsoCutAt: extraCuts, reachingPast: since)
    }
}

/// A session's cumulative fuel over time, for cutting it at a refuel.
struct FuelTrace {
    var driver: DriverID
    var driverName: String
    /// (UTC ms, litres so far), ascending in time.
    var points: [(Int64, Double)]
    /// Metres so far at each point.
    var distances: [Double] = []
    /// The calibration factor the litres were estimated with.
    var fuelScale: Double = 1

    /// Litres at `time`, interpolating between points.
    func fuel(at time: Int64) -> Double { interpolate(at: time) { points[$0].1 } }

    /// Metres at `time`, interpolating between points.
    func distance(at time: Int64) -> Double {
        distances.count == points.count ? interpolate(at: time) { distances[$0] } : 0
    }

    /// Metres driven in (from, to].
    func distance(from: Int64, to: Int64) -> Double { max(0, distance(at: to) - distance(at: from)) }

    private func interpolate(at time: Int64, _ value: (Int) -> Double) -> Double {
        guard let first = points.first, let last = points.last else { return 0 }
        if time <= first.0 { return value(0) }
        if time >= last.0 { return value(points.count - 1) }
        var low = 0
        var high = points.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if points[middle].0 <= time { low = middle } else { high = middle }
        }
        let t0 = points[low].0
        let t1 = points[high].0
        let v0 = value(low)
        let v1 = value(high)
        return t1 == t0 ? v1 : v0 + (v1 - v0) * Double(time - t0) / Double(t1 - t0)
    }

    /// Litres burnt in (from, to].
    func fuel(from: Int64, to: Int64) -> Double { max(0, fuel(at: to) - fuel(at: from)) }

    /// The part of `liters` spread evenly over [from, to] that falls in (windowFrom, windowTo].
    static func overlap(from: Int64, to: Int64, liters: Double, windowFrom: Int64, windowTo: Int64) -> Double {
        if to <= from { return (to > windowFrom && to <= windowTo) ? liters : 0 }
        let start = max(from, windowFrom)
        let end = min(to, windowTo)
        guard end > start else { return 0 }
        return liters * Double(end - start) / Double(to - from)
    }
}
