import FairFuelCore
import FairFuelDomain

/// One bill before and after a correction.
public struct BillChange: Sendable, Equatable {
    public var refuelID: Int64
    public var atUTCMs: Int64
    public var cost: MinorUnits
    public var currency: String?
    public var before: [RefuelSplit.Share]
    public var after: [RefuelSplit.Share]
    /// The bill is settled: the correction would have moved it, and it was kept as it is (`force`).
    public var keptSettled: Bool
}

/// What a correction did to the books: every bill whose shares (or rule) moved, before and after.
public struct BookChange: Sendable, Equatable {
    public var bills: [BillChange]

    public init(bills: [BillChange]) {
        self.bills = bills
    }

    init(before: [RefuelSplit], after: [RefuelSplit], keptSettled: [Int64]) {
        let old = Dictionary(before.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        bills = after.compactMap { split in
            let previous = old[split.id]?.shares ?? []
            let kept = keptSettled.contains(split.id)
            // A bill whose rule changed moved too (the uplink's copy says the rule), even when its money did not.
            let ruleChanged = old[split.id]?.rule != split.rule
            guard kept || ruleChanged || Self.key(previous) != Self.key(split.shares) else { return nil }
            return BillChange(
                refuelID: split.id, atUTCMs: split.refuel.atUTCMs, cost: split.refuel.cost, currency: split.refuel.currency,
                before: previous, after: split.shares, keptSettled: kept)
        }
    }

    /// Money and millilitres: what a family would see move.
    private static func key(_ shares: [RefuelSplit.Share]) -> [String] {
        shares.map { "\($0.moneyKey):\(($0.fuelLiters * 1000).rounded())" }
    }
}

/// A trip a correction changed: what it was and what it is now.
public struct TripCorrection: Sendable, Equatable {
    public var trip: TripReference
    /// The session it is now (an assigned untracked drive becomes one); nil when deleted.
    public var session: Int64?
    /// The untracked driving its fuel became (a deleted trip, cut at each refuel inside it).
    public var untracked: [Int64]
    public var driverName: String?
    public var previousDriverName: String?
}
