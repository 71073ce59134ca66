import FairFuelCore
import FairFuelDomain
import FairFuelSQLite

extension TripStore {
    /// The bill not yet paid (`OpenBill`): each party's fuel since the last refuel, weighted and split by
    /// the rule the next refuel's bill will use (`billFuel`, `CostSplitter` under the vehicle's untracked
    /// policy), its cost estimated at the last bill's price per litre. Before the first full fill-up the
    /// next bill is a first-fill one, whose split needs the litres pumped: the fuel is told, no costs.
    public func openBill() throws(StoreError) -> OpenBill {
        do {
            let vehicle = try vehicle()
            let log = try refuels()
            let last = log.last
            let since = last?.refuel.atUTCMs ?? .min
            let traces = try fuelTraces(reachingPast: last?.refuel.atUTCMs)
            let untracked = try connection.query(
                "SELECT from_utc_ms, to_utc_ms, fuel_l FROM untracked_driving WHERE to_utc_ms > ?", .integer(since)
            ) { ($0.int64(0), $0.int64(1), $0.double(2)) }
            let latestData = (traces.compactMap { $0.points.last?.0 } + untracked.map(\.1)).max()
            let until = [latestData, last?.refuel.atUTCMs].compactMap { $0 }.max()
            let (fuel, names) = Self.billFuel(
                from: since, to: until ?? since, traces: traces, untracked: untracked, learned: try appliedDriverFactorsInTransaction())
            // A bill in another currency (before a change of the vehicle's) tells nothing of today's price.
            let priced = log.last { !$0.refuel.baseline && $0.refuel.liters > 0 && ($0.refuel.currency ?? vehicle.currency) == vehicle.currency }
            let perLiter = priced.map { Double($0.refuel.cost.value) / $0.refuel.liters }
            let ordinary = log.contains { $0.refuel.fullTank || $0.refuel.baseline }
            let estimate = ordinary ? perLiter : nil
            let total = fuel.reduce(0) { $0 + $1.fuel.value }
            let bill = MinorUnits(Int64(((estimate ?? 0) * total).rounded()))
            // A party the policy charges without their driving in the window (the owner) is named as the bills name them.
            let everyone = Dictionary(try drivers(includingRemoved: true).map { ($0.id, $0.name) }) { first, _ in first }
            // Nobody drove: nothing is open (a bill splits a cost nobody burnt to untracked driving; this has none).
            let split = fuel.isEmpty ? [] : CostSplitter.split(bill: bill, fuel: fuel, untracked: vehicle.untrackedPolicy)
            let shares = split.map { share in
                RefuelSplit.Share(
                    driver: share.driver, driverName: share.driver.flatMap { names[$0] ?? everyone[$0] }, fuelLiters: share.fuel.value,
                    cost: share.cost)
            }.sorted { ($0.driver == nil ? 1 : 0, $0.driverName ?? "") < ($1.driver == nil ? 1 : 0, $1.driverName ?? "") }
            return OpenBill(sinceUTCMs: last?.refuel.atUTCMs, untilUTCMs: until, estimatedPricePerLiter: estimate, shares: shares)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(error)
        }
    }
}
