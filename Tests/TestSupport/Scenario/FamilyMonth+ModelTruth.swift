import FairFuelCore

extension FamilyMonth {
    /// The truth of a family's `days` with real-life events and FairFuel's model on the true speeds
    /// (`ScenarioOptions.referenceModel`), a full tank before the first day and after the last: what
    /// the fuel-model studies compare with, no capture replayed.
    public static func modelTruth(seed: UInt64, days: Int, car: WillansCar = WillansCar()) -> ScenarioTruth {
        var options = ScenarioOptions(seed: seed)
        options.referenceModel = true
        var month = FamilyMonth(seed: seed, days: days, options: options, realLife: FamilyMonth.RealLife(), car: car)
        month.fillUpAtTheStart()
        while month.day() != nil {}
        month.fillUpAtTheEnd()
        return month.truth
    }
}
