import FairFuelCore
import FairFuelDomain
import FairFuelReports
import FairFuelStore
import Foundation
import Testing

/// What `vehicle show` and `summary` say the car has learnt, in text and JSON.
@Suite struct LearnedConsumptionTextTests {
    static let units = DisplayUnits(units: "metric", currency: "EUR", currencyMinorDigits: 2)
    static let adopted = LearnedConsumption(
        atUTCMs: 1_777_723_200_000,  // 2026-05-02 12:00 UTC
        fit: DriverFactorFit(
            outcome: .adopted, periodsUsed: 14, periodsNeeded: 8, factors: [DriverID(1): 1.06, DriverID(2): 0.97, nil: 1.01],
            ridgeStrength: 0.3, heldOutErrorLearned: 0.021, heldOutErrorOneFactor: 0.034),
        driverNames: [DriverID(1): "Anna", DriverID(2): "Ben"])

    @Test func anAdoptedFitSaysWhatAndWhy() {
        let text = LearnedConsumptionText.text(Self.adopted, units: Self.units)
        #expect(text == "learned consumption: from 14 full tanks: Anna ×1.06, Ben ×0.97, untracked ×1.01; adopted 2026-05-02: "
            + "held-out error 2.1 % vs 3.4 % for one factor; open bills use it", "\(text)")
    }

    @Test func aFitNotAdoptedOrNotYetTriedSaysWhyNot() {
        var rejected = Self.adopted
        rejected.fit.outcome = .notBetter
        rejected.fit.heldOutErrorLearned = 0.033
        let text = LearnedConsumptionText.text(rejected, units: Self.units)
        #expect(text.hasSuffix("not adopted: held-out error 3.3 % vs 3.4 % for one factor (it must be 10 % better)"), "\(text)")
        let early = LearnedConsumption(atUTCMs: 0, fit: DriverFactorFit(outcome: .tooFewPeriods, periodsUsed: 4, periodsNeeded: 8), driverNames: [:])
        #expect(LearnedConsumptionText.text(early, units: Self.units) == "learned consumption: not yet: 4 full tanks of the 8 needed")
        #expect(LearnedConsumptionText.text(nil, units: Self.units).hasPrefix("learned consumption: not yet: no full tank"))
    }

    @Test func theJSONCarriesTheFactorsAndErrors() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(LearnedConsumptionText.json(Self.adopted).utf8)) as? [String: Any])
        #expect(object["outcome"] as? String == "adopted" && object["full_tanks"] as? Int == 14)
        #expect(object["held_out_error"] as? Double == 0.021 && object["held_out_error_one_factor"] as? Double == 0.034)
        let factors = try #require(object["factors"] as? [[String: Any]])
        #expect(factors.map { $0["driver"] as? String } == ["Anna", "Ben", "untracked"])
        #expect(factors.map { $0["factor"] as? Double } == [1.06, 0.97, 1.01])
        let none = try #require(try JSONSerialization.jsonObject(with: Data(LearnedConsumptionText.json(nil).utf8)) as? [String: Any])
        #expect(none["outcome"] as? String == "too_few_periods" && none["full_tanks"] as? Int == 0)
    }
}
