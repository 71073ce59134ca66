/// True cars that span real petrol cars' highway/city consumption ratio, for studies that ask
/// whether a result depends on the scenarios' one car (`WillansCar()`).
///
/// Each is a `WillansCar` with real parameters changed within what real petrol cars of its kind
/// have, built to sit at one percentile of the EPA's 2022 list's HWFET/hot-UDDS ratio (p10 0.597,
/// p25 0.639, p50 0.677, p75 0.720, p90 0.763) when a normal driver drives the cycles
/// (`EPACycleRatios.highwayRatio`; TruthCarRealismTests checks each lands in its band). In the
/// EPA list a low ratio goes with a large engine (friction and idle fuel weigh on the city cycle)
/// in a low-drag body, a high one with a small engine in a tall body: the cars follow that.
/// Masses are laden (kerb plus about 136 kg, as the EPA's test weight); drag area is Cd times frontal area. Every car keeps
/// the scenarios' 55 L tank, so the months' refuels come at the same tank level.
public struct TruthCarPopulation: Sendable {
    /// One true car and the EPA percentile it stands for.
    public struct Member: Sendable, CustomStringConvertible {
        public var name: String
        /// The percentile of the EPA highway/city ratio the car is built to sit at, 0...1.
        public var intendedPercentile: Double
        public var car: WillansCar

        public var description: String { name }
    }

    /// How far from its intended percentile a car's EPA rank may lie, as a share of the list.
    public static let bandHalfWidth = 0.05

    /// A six-speed with a tall top gear, as large sedans have.
    static let tallSixSpeed = [3.5, 2.0, 1.3, 1.0, 0.78, 0.64]

    public static let members: [Member] = [
        // A 3.6 L V6 full-size sedan (Chrysler 300 class): 1,850 kg, Cd 0.30 on 2.15 m², 200 kW,
        // long final drive, more alternator and climate load.
        Member(name: "p10 3.6 L V6 full-size sedan", intendedPercentile: 0.10, car: modified {
            $0.massKilograms = 1_850
            $0.displacementLiters = 3.6
            $0.maximumBMEPBar = 11.5
            $0.dragAreaSquareMeters = 0.64
            $0.gearRatios = tallSixSpeed
            $0.finalDrive = 3.1
            $0.indicatedEfficiency = 0.37
            $0.accessoryKilowatts = 1.1
        }),
        // A 2.5 L four-cylinder midsize sedan (Camry class): 1,650 kg, Cd 0.28 on 2.15 m².
        Member(name: "p25 2.5 L midsize sedan", intendedPercentile: 0.25, car: modified {
            $0.massKilograms = 1_650
            $0.displacementLiters = 2.5
            $0.dragAreaSquareMeters = 0.60
            $0.gearRatios = tallSixSpeed
            $0.finalDrive = 3.5
            $0.indicatedEfficiency = 0.37
            $0.accessoryKilowatts = 1.0
        }),
        // A 2.0 L four-cylinder midsize sedan (Mazda 6 2.0, Passat class): 1,600 kg, Cd 0.29 on 2.15 m².
        Member(name: "p50 2.0 L midsize sedan", intendedPercentile: 0.50, car: modified {
            $0.massKilograms = 1_600
            $0.displacementLiters = 2.0
            $0.dragAreaSquareMeters = 0.62
            $0.finalDrive = 3.7
            $0.indicatedEfficiency = 0.37
            $0.accessoryKilowatts = 0.8
        }),
        // A 1.6 L four-cylinder compact sedan (Corolla, Golf class): 1,400 kg, Cd 0.29 on 2.15 m².
        Member(name: "p75 1.6 L compact sedan", intendedPercentile: 0.75, car: modified {
            $0.massKilograms = 1_400
            $0.displacementLiters = 1.6
            $0.dragAreaSquareMeters = 0.62
            $0.finalDrive = 3.9
        }),
        // A 1.2 L three-cylinder small crossover (Citroën C3 Aircross, Opel Crossland 1.2 class): 1,280 kg,
        // Cd 0.33 on 2.05 m², short final drive, softer tyres.
        Member(name: "p90 1.2 L three-cylinder small crossover", intendedPercentile: 0.90, car: modified {
            $0.massKilograms = 1_280
            $0.displacementLiters = 1.2
            $0.dragAreaSquareMeters = 0.67
            $0.rollingCoefficient = 0.010
            $0.finalDrive = 4.1
            $0.accessoryKilowatts = 0.6
        }),
    ]

    /// The scenarios' car with `change` applied.
    static func modified(_ change: (inout WillansCar) -> Void) -> WillansCar {
        var car = WillansCar()
        change(&car)
        return car
    }
}
