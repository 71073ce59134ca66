import FairFuelCore
import FairFuelDomain
import FairFuelParsers

/// Knobs of a scenario world.
public struct ScenarioOptions: Sendable {
    public var seed: UInt64 = 1
    /// UTC at world time 0; by default Monday 2026-11-02 06:00:00Z.
    public var startUTCMs: Int64 = UTCDate(year: 2026, month: 11, day: 2)!.daysSinceEpoch * 86_400_000 + 6 * 3_600_000
    /// GNSS epochs per second.
    public var nmeaRateHz = 1
    /// Whether the MCU senses ignition (POWER frames, heartbeat flag).
    public var ignitionSense = true
    /// How long the dongle stays powered after the ignition goes off.
    public var holdUpMs: Int64 = 900_000
    /// Scale of strangers' arrival rates (0: nobody else around).
    public var crowd = 1.0
    /// Receiver noise, dropouts and outliers; false gives exact fixes.
    public var gnssNoise = true
    /// Also run FairFuel's fuel model on the true speeds (`ScenarioTruth.Period.modelLiters`).
    public var referenceModel = false
    /// The vehicle that reference model is told about; nil: FairFuel's default (`VehicleFuelProfile()`).
    public var referenceProfile: VehicleFuelProfile?
    /// Litres in the tank at the start; nil: 3 L short of full.
    public var initialTankLiters: Double?
    /// Keep every moving second in `ScenarioTruth.movements` (who drove how far, when).
    public var recordMovements = false
    /// Where the car starts.
    public var latitude = 48.137
    public var longitude = 11.575

    public init(seed: UInt64 = 1) {
        self.seed = seed
    }
}
