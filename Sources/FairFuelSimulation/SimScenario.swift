import FairFuelCore
import FairFuelLink
import FairFuelParsers

/// A virtual MCU scenario as written in a `.scenario` file: who the drivers are, where
/// the car starts, and a timeline of days with trips and link events.
///
/// The format is documented in `scenarios/README.md`; `SimScenarioParser` reads it and
/// `SimPlanner` turns it into a `SimPlan` that the `VirtualMCU` plays.
public struct SimScenario: Sendable {
    public var title = "untitled scenario"
    /// Seeds every random choice (routes, radio, GNSS noise, line noise).
    public var seed: UInt64 = 1
    /// Local date and time of simulated time zero.
    public var startDate = UTCDate(year: 2026, month: 3, day: 2)!
    public var startSecondOfDay = 6 * 3600
    /// Local time minus UTC, in minutes (a fixed offset; no daylight-saving rules).
    public var utcOffsetMinutes = 0
    public var gnss = GNSSSettings()
    public var mcu = MCUSettings()
    public var radio = RadioSettings()
    /// Line noise from the start (the timeline can change it).
    public var noise = LineNoiseSettings()
    public var places: [SimPlace] = []
    public var vehicleStart: SimVehicleStart = .position(GeoPoint(latitude: 48.137_2, longitude: 11.575_6))
    /// Ground altitude at the start, metres above mean sea level.
    public var altitudeMeters = 520.0
    public var drivers: [SimDriver] = []
    /// Advertisers that are always near one place (a neighbour's phone at home).
    public var residentStrangers: [SimStranger] = []
    /// Strangers passing per minute while driving and while parked.
    public var ambientDrivingPerMinute = 0.0
    public var ambientParkedPerMinute = 0.0
    public var timeline: [SimTimelineEntry] = []
    /// File name used in error messages.
    public var sourceName = "scenario"
    /// Directory that relative paths in the scenario (NMEA logs) are resolved against.
    public var baseDirectory = "."

    public init() {}

    /// The driver called `name` (names compare case-insensitively).
    public func driver(named name: String) -> SimDriver? {
        drivers.first { $0.name.lowercased() == name.lowercased() }
    }

    public func place(named name: String) -> SimPlace? {
        places.first { $0.name.lowercased() == name.lowercased() }
    }

    /// UTC milliseconds since 1970 of simulated time zero.
    public var startUTCMilliseconds: Int64 {
        startDate.daysSinceEpoch * 86_400_000 + Int64(startSecondOfDay) * 1000
            - Int64(utcOffsetMinutes) * 60_000
    }
}
