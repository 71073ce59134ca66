import FairFuelCore
import FairFuelDomain
import FairFuelStore

/// One party's part of one refuel's bill: the unit the split is aggregated from.
public struct BillShare: Sendable, Equatable {
    public var refuelID: Int64
    public var refuelUTCMs: Int64
    /// nil: untracked driving.
    public var driverName: String?
    public var fuelLiters: Double
    public var cost: MinorUnits
    /// The bill's currency (ISO 4217); nil: the vehicle's.
    public var currency: String?
    /// The first bill's remainder: fuel burnt before tracking began.
    public var beforeTracking: Bool
    /// The rule the bill was split by; nil: not known (a pulled bill).
    public var rule: SplitRule?

    public init(refuelID: Int64, refuelUTCMs: Int64, driverName: String?, fuelLiters: Double, cost: MinorUnits,
                currency: String? = nil, beforeTracking: Bool = false, rule: SplitRule? = nil) {
        self.refuelID = refuelID
        self.refuelUTCMs = refuelUTCMs
        self.driverName = driverName
        self.fuelLiters = fuelLiters
        self.cost = cost
        self.currency = currency
        self.beforeTracking = beforeTracking
        self.rule = rule
    }

    /// Every share of every split, in the splits' order.
    public static func all(_ splits: [RefuelSplit]) -> [BillShare] {
        splits.flatMap { split in
            split.shares.map {
                BillShare(refuelID: split.id, refuelUTCMs: split.refuel.atUTCMs, driverName: $0.driverName,
                          fuelLiters: $0.fuelLiters, cost: $0.cost, currency: split.refuel.currency, beforeTracking: $0.beforeTracking,
                          rule: split.rule)
            }
        }
    }
}

/// What one driver (or untracked driving) owes over a set of bills in one currency.
public struct SplitTotal: Sendable, Equatable {
    /// nil: untracked driving (or, with `beforeTracking`, fuel burnt before tracking began).
    public var driverName: String?
    public var fuelLiters: Double
    public var cost: MinorUnits
    public var refuels: Int
    /// The bills' currency; nil: the vehicle's. Totals never add two currencies.
    public var currency: String? = nil
    public var beforeTracking = false
}

/// Sums of bill shares. Integer minor units add exactly, so the totals of any grouping sum
/// to the sum of the bills.
public enum SplitTotals {
    /// Per currency (first seen first), then per driver, by name (case as first seen), largest cost
    /// first, then name; untracked, then before tracking, last.
    public static func byDriver(_ shares: [BillShare]) -> [SplitTotal] {
        var totals: [SplitTotal] = []
        var currencies: [String?] = []
        for share in shares {
            if !currencies.contains(share.currency) { currencies.append(share.currency) }
            let key = share.driverName?.lowercased()
            if let index = totals.firstIndex(where: {
                $0.driverName?.lowercased() == key && $0.currency == share.currency && $0.beforeTracking == share.beforeTracking
            }) {
                totals[index].fuelLiters += share.fuelLiters
                totals[index].cost += share.cost
                totals[index].refuels += 1
            } else {
                totals.append(SplitTotal(
                    driverName: share.driverName, fuelLiters: share.fuelLiters, cost: share.cost, refuels: 1, currency: share.currency,
                    beforeTracking: share.beforeTracking))
            }
        }
        return totals.sorted { a, b in
            if a.currency != b.currency {
                return currencies.firstIndex(of: a.currency)! < currencies.firstIndex(of: b.currency)!
            }
            if a.beforeTracking != b.beforeTracking { return b.beforeTracking }
            if (a.driverName == nil) != (b.driverName == nil) { return b.driverName == nil }
            if a.cost != b.cost { return a.cost > b.cost }
            return (a.driverName ?? "") < (b.driverName ?? "")
        }
    }

    /// Per calendar month of the refuel in `zone`, oldest first, each per driver.
    public static func byMonth(_ shares: [BillShare], in zone: TimeZoneRules = .utc) -> [(month: CalendarMonth, totals: [SplitTotal])] {
        let months = Dictionary(grouping: shares) { CalendarMonth(utcMs: $0.refuelUTCMs, in: zone) }
        return months.keys.sorted().map { ($0, byDriver(months[$0]!)) }
    }
}

/// A sum of bills in one currency.
public struct CurrencyTotal: Sendable, Equatable {
    public var currency: String
    public var total: MinorUnits
}

/// One driver's month (or all time): distance, time, fuel, money and style.
public struct DriverSummary: Sendable, Equatable {
    public var driverName: String
    public var trips: Int
    public var distanceMeters: Double
    public var durationMs: Int64
    public var idleMs: Int64
    /// Estimated litres of the trips.
    public var fuelLiters: Double
    /// What the driver owes for the refuels of the period (their shares of the bills).
    public var cost: MinorUnits
    public var harshEvents: Int
    public var ecoScore: Int?
    /// Distance, time and fuel of the trips whose motion was measured (`TripRow.hasMotionFigures`):
    /// what the harsh rate, the idle share and the eco score are over.
    public var measuredMeters = 0.0
    public var measuredMs: Int64 = 0
    public var measuredLiters = 0.0

    /// Harsh events per 100 km of measured driving; nil without it.
    public var harshPer100km: Double? { measuredMeters > 0 ? Double(harshEvents) / measuredMeters * 100_000 : nil }
    /// Idle time over measured driving time (0…1); nil without it.
    public var idleShare: Double? { measuredMs > 0 ? Double(idleMs) / Double(measuredMs) : nil }
    /// Estimated L/100 km; nil without distance.
    public var litersPer100km: Double? { distanceMeters > 0 ? fuelLiters / distanceMeters * 100_000 : nil }
}

/// The family's figures for a period.
public struct FamilySummary: Sendable, Equatable {
    /// nil: all time.
    public var month: CalendarMonth?
    public var drivers: [DriverSummary]
    /// Untracked driving's part of the bills (what the owner pays under the owner policy).
    public var untrackedCost: MinorUnits
    /// The first bill's remainder: fuel burnt before tracking began.
    public var beforeTrackingCost: MinorUnits = .zero
    /// The period's bills per rule they were split by (bills of a known rule only), in `SplitRule` order.
    public var billsByRule: [RuleTotal] = []
    /// The bills of the period's refuels (in `currency` when one was given).
    public var billsTotal: MinorUnits
    /// Bills of the period in other currencies than the summary's, never added to it: per currency, their total.
    public var otherCurrencyBills: [CurrencyTotal] = []
    /// Full-to-full periods that ended in the period.
    public var fullFills: [FullFillPeriod]

    /// Trips whose start is in `month` (all with nil), bills whose refuel is, periods whose later full fill is;
    /// `month` is a calendar month of `zone`.
    /// With `currency`, only bills in it are added up (a bill without one counts as in it); the others are listed apart.
    public init(month: CalendarMonth?, trips: [TripRow], shares: [BillShare], fullFills: [FullFillPeriod],
                ratedLitersPer100km: Double, currency: String? = nil, in zone: TimeZoneRules = .utc) {
        self.month = month
        func inPeriod(_ utcMs: Int64?) -> Bool {
            guard let month else { return true }
            guard let utcMs else { return false }
            return month.contains(utcMs: utcMs, in: zone)
        }
        let trips = trips.filter { inPeriod($0.startUTCMs) && !$0.untracked }
        var shares = shares.filter { inPeriod($0.refuelUTCMs) }
        if let currency {
            var others: [CurrencyTotal] = []
            for share in shares {
                guard let code = share.currency, code != currency else { continue }
                if let index = others.firstIndex(where: { $0.currency == code }) { others[index].total += share.cost } else { others.append(CurrencyTotal(currency: code, total: share.cost)) }
            }
            otherCurrencyBills = others
            shares = shares.filter { $0.currency == nil || $0.currency == currency }
        }
        var byName: [String: DriverSummary] = [:]
        var order: [String] = []
        for trip in trips {
            let key = trip.driverName.lowercased()
            if byName[key] == nil {
                order.append(key)
                byName[key] = DriverSummary(driverName: trip.driverName, trips: 0, distanceMeters: 0, durationMs: 0, idleMs: 0,
                                            fuelLiters: 0, cost: .zero, harshEvents: 0, ecoScore: nil)
            }
            byName[key]!.trips += 1
            byName[key]!.distanceMeters += trip.distanceMeters
            byName[key]!.durationMs += trip.durationMs
            byName[key]!.idleMs += trip.idleMs
            byName[key]!.fuelLiters += trip.fuelLiters
            byName[key]!.harshEvents += trip.harshEvents
            if trip.hasMotionFigures {
                byName[key]!.measuredMeters += trip.distanceMeters
                byName[key]!.measuredMs += trip.durationMs
                byName[key]!.measuredLiters += trip.fuelLiters
            }
        }
        var untracked = MinorUnits.zero
        for total in SplitTotals.byDriver(shares) {
            if total.beforeTracking {
                beforeTrackingCost += total.cost
                continue
            }
            guard let name = total.driverName else {
                untracked += total.cost
                continue
            }
            let key = name.lowercased()
            if byName[key] == nil {
                order.append(key)
                byName[key] = DriverSummary(driverName: name, trips: 0, distanceMeters: 0, durationMs: 0, idleMs: 0,
                                            fuelLiters: 0, cost: .zero, harshEvents: 0, ecoScore: nil)
            }
            byName[key]!.cost += total.cost
        }
        drivers = order.map { key in
            var summary = byName[key]!
            summary.ecoScore = EcoScore.score(
                harshEvents: summary.harshEvents, meters: summary.measuredMeters, idleMs: summary.idleMs,
                durationMs: summary.measuredMs, liters: summary.measuredLiters, ratedLitersPer100km: ratedLitersPer100km)
            return summary
        }.sorted { a, b in
            a.distanceMeters != b.distanceMeters ? a.distanceMeters > b.distanceMeters : a.driverName < b.driverName
        }
        untrackedCost = untracked
        billsTotal = shares.reduce(.zero) { $0 + $1.cost }
        billsByRule = RuleTotal.all(shares)
        self.fullFills = fullFills.filter { inPeriod($0.toUTCMs) }
    }
}

/// The bills split by one rule: how many and their sum.
public struct RuleTotal: Sendable, Equatable {
    public var rule: SplitRule
    public var bills: Int
    public var total: MinorUnits

    public init(rule: SplitRule, bills: Int, total: MinorUnits) {
        self.rule = rule
        self.bills = bills
        self.total = total
    }

    /// Per rule, in `SplitRule` order, over the shares' bills (a rule with no bill is left out).
    static func all(_ shares: [BillShare]) -> [RuleTotal] {
        SplitRule.allCases.compactMap { rule in
            let ofRule = shares.filter { $0.rule == rule }
            guard !ofRule.isEmpty else { return nil }
            return RuleTotal(rule: rule, bills: Set(ofRule.map(\.refuelID)).count, total: ofRule.reduce(.zero) { $0 + $1.cost })
        }
    }
}
