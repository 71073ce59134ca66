/// Real petrol cars' consumption on the highway (HWFET) and aggressive (US06) cycles over the hot
/// city cycle (UDDS), from the EPA's 2022 list, and where a true car (`WillansCar`) sits among them.
///
/// The one measure of "what kind of car" both the truth car's realism test and the month replays'
/// car study use.
public struct EPACycleRatios: Sendable {
    public let udds: [Double]
    public let hwfet: [Double]
    public let us06: [Double]
    public let vehicles: [FuelFixtures.EPAVehicle]
    /// HWFET over hot UDDS of each EPA car, ascending.
    public let highwayRatios: [Double]
    /// US06 over hot UDDS of each EPA car, ascending.
    public let aggressiveRatios: [Double]

    /// Loads the cycles and the EPA list (`FuelFixtures`).
    public init() throws {
        udds = try FuelFixtures.cycle("udds")
        hwfet = try FuelFixtures.cycle("hwfet")
        us06 = try FuelFixtures.cycle("us06")
        vehicles = try FuelFixtures.epaVehicles(bagMeters: FuelFixtures.bagMeters(udds: udds))
        highwayRatios = vehicles.map { $0.highway / $0.cityHot }.sorted()
        aggressiveRatios = vehicles.map { $0.aggressive / $0.cityHot }.sorted()
    }

    /// The nearest-rank value at `p` (0...1) of an ascending list.
    public static func percentile(_ sorted: [Double], _ p: Double) -> Double { sorted[Int(Double(sorted.count - 1) * p)] }

    /// The share of `sorted` at or below `value`.
    public static func rank(_ value: Double, in sorted: [Double]) -> Double {
        Double(sorted.filter { $0 <= value }.count) / Double(sorted.count)
    }

    /// L/100 km of a true car over a 1 Hz speed trace, warm, shifting as `style` does.
    public static func truthConsumption(_ car: WillansCar, _ speeds: [Double], _ style: DrivingStyle) -> Double {
        var drivetrain = Drivetrain()
        drivetrain.start(atSeconds: 0)
        var liters = 0.0
        var meters = 0.0
        for index in speeds.indices.dropFirst() {
            let acceleration = speeds[index] - speeds[index - 1]
            let speed = (speeds[index] + speeds[index - 1]) / 2
            drivetrain.shift(car: car, speed: speed, acceleration: acceleration, upshiftRPM: style.upshiftRPM, downshiftRPM: style.downshiftRPM)
            liters += car.millilitersPerSecond(speed: speed, acceleration: acceleration, gear: drivetrain.gear, coldness: 0) / 1000
            meters += speed
        }
        return liters / meters * 100_000
    }

    /// A true car's HWFET over hot UDDS consumption, driven as `style` drives.
    public func highwayRatio(_ car: WillansCar, _ style: DrivingStyle) -> Double {
        Self.truthConsumption(car, hwfet, style) / Self.truthConsumption(car, udds, style)
    }

    /// A true car's US06 over hot UDDS consumption, driven as `style` drives.
    public func aggressiveRatio(_ car: WillansCar, _ style: DrivingStyle) -> Double {
        Self.truthConsumption(car, us06, style) / Self.truthConsumption(car, udds, style)
    }

    /// The share of EPA cars whose highway/city ratio is at or below `ratio`.
    public func highwayRank(_ ratio: Double) -> Double { Self.rank(ratio, in: highwayRatios) }

    /// The share of EPA cars whose US06/city ratio is at or below `ratio`.
    public func aggressiveRank(_ ratio: Double) -> Double { Self.rank(ratio, in: aggressiveRatios) }
}
