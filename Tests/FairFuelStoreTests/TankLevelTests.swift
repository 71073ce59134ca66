import FairFuelCore
import FairFuelDomain
@testable import FairFuelStore
import Testing

/// The rule of the estimated fuel in the tank, without a store: a full-tank refuel fills it to
/// capacity, a partial one adds its litres up to capacity, driving takes its litres down to 0,
/// and nothing is known before the first full-tank refuel.
@Suite struct TankLevelTests {
    typealias Step = TankLevel.Step

    @Test func aFullRefuelFillsTheTankAndDrivingEmptiesIt() {
        #expect(TankLevel.liters(capacity: 50, after: [.refuel(liters: 31.2, fullTank: true)]) == 50)
        #expect(TankLevel.liters(capacity: 50, after: [.refuel(liters: 31.2, fullTank: true), .driving(liters: 3.5), .driving(liters: 1.25)])
            == 45.25)
    }

    @Test func aPartialRefuelAddsItsLitres() {
        let steps: [Step] = [.refuel(liters: 40, fullTank: true), .driving(liters: 20), .refuel(liters: 10, fullTank: false), .driving(liters: 5)]
        #expect(TankLevel.liters(capacity: 50, after: steps) == 35)
    }

    @Test func aPartialRefuelNeverFillsPastTheCapacity() {
        let steps: [Step] = [.refuel(liters: 40, fullTank: true), .driving(liters: 2), .refuel(liters: 10, fullTank: false)]
        #expect(TankLevel.liters(capacity: 50, after: steps) == 50)
        #expect(TankLevel.liters(capacity: 50, after: steps + [.driving(liters: 4)]) == 46)
    }

    @Test func drivingNeverTakesTheTankBelowEmpty() {
        let steps: [Step] = [.refuel(liters: 40, fullTank: true), .driving(liters: 62.5)]
        #expect(TankLevel.liters(capacity: 50, after: steps) == 0)
        // The floor holds at each step: the next partial refuel starts from empty, not from -12.5.
        #expect(TankLevel.liters(capacity: 50, after: steps + [.refuel(liters: 5, fullTank: false)]) == 5)
    }

    @Test func withoutAFullRefuelTheLevelIsUnknown() {
        #expect(TankLevel.liters(capacity: 50, after: []) == nil)
        #expect(TankLevel.liters(capacity: 50, after: [.refuel(liters: 20, fullTank: false), .driving(liters: 3)]) == nil)
        // A partial refuel before the first full one changes nothing; the full one sets the level.
        let steps: [Step] = [.refuel(liters: 20, fullTank: false), .driving(liters: 3), .refuel(liters: 30, fullTank: true), .driving(liters: 1)]
        #expect(TankLevel.liters(capacity: 50, after: steps) == 49)
    }

    @Test func aLaterFullRefuelStartsAgainFromTheCapacity() {
        let steps: [Step] = [.refuel(liters: 40, fullTank: true), .driving(liters: 30), .refuel(liters: 30, fullTank: true), .driving(liters: 2)]
        #expect(TankLevel.liters(capacity: 55, after: steps) == 53)
    }

    /// Trips as spans burning their litres evenly, cut at refuels as the split cuts them.
    struct Trip {
        var from: Int64
        var to: Int64
        var liters: Double
    }

    static func level(capacity: Double, refuels: [TankLevel.Refuel], trips: [Trip]) -> Double? {
        let steps = TankLevel.steps(refuels: refuels) { after, upTo in
            trips.reduce(0) { $0 + FuelTrace.overlap(from: $1.from, to: $1.to, liters: $1.liters, windowFrom: after, windowTo: upTo) }
        }
        return TankLevel.liters(capacity: capacity, after: steps)
    }

    static let refuels = [
        TankLevel.Refuel(atUTCMs: 0, liters: 35, fullTank: true),
        TankLevel.Refuel(atUTCMs: 10_000, liters: 3, fullTank: false),
    ]
    /// Half of the first trip is before the full refuel; the second is cut by the partial one.
    static let trips = [
        Trip(from: -5_000, to: 5_000, liters: 4),  // 2 L after the full refuel
        Trip(from: 8_000, to: 12_000, liters: 4),  // 2 L before the partial refuel, 2 L after
        Trip(from: 20_000, to: 21_000, liters: 1),
    ]

    @Test func drivingIsCutAtEachRefuelsMoment() {
        #expect(TankLevel.steps(refuels: Self.refuels) { after, upTo in
            Self.trips.reduce(0) { $0 + FuelTrace.overlap(from: $1.from, to: $1.to, liters: $1.liters, windowFrom: after, windowTo: upTo) }
        } == [.refuel(liters: 35, fullTank: true), .driving(liters: 4), .refuel(liters: 3, fullTank: false), .driving(liters: 3)])
        // 50 - 4 = 46, + 3 = 49, - 3 = 46.
        #expect(Self.level(capacity: 50, refuels: Self.refuels, trips: Self.trips) == 46)
        // Driving before the first refuel is not in any step.
        #expect(TankLevel.steps(refuels: [], fuelBurnt: { _, _ in 9 }) == [])
    }

    @Test func aCorrectedTripChangesTheLevel() {
        // The last trip's estimate corrected upwards (a recalibrated model), then the trip gone.
        var trips = Self.trips
        trips[2].liters = 2.5
        #expect(Self.level(capacity: 50, refuels: Self.refuels, trips: trips) == 44.5)
        trips.removeLast()
        #expect(Self.level(capacity: 50, refuels: Self.refuels, trips: trips) == 47)
        // The partial refuel corrected to a full one: the tank was full at 10 s.
        var refuels = Self.refuels
        refuels[1].fullTank = true
        #expect(Self.level(capacity: 50, refuels: refuels, trips: trips) == 48)
        // Its removal: only the full refuel and the driving after it.
        #expect(Self.level(capacity: 50, refuels: [Self.refuels[0]], trips: trips) == 44)
    }
}
