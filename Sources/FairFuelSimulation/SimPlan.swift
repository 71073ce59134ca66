import FairFuelCore
import FairFuelLink
import FairFuelParsers

/// Everything the virtual MCU plays, worked out ahead from a scenario: the car's drives,
/// when each advertiser is how far away, the discrete events, and the truth to check against.
///
/// Immutable, and shared by reference: the virtual MCU consults it for every event, and a
/// struct of a dozen arrays would be copied (each array retained) at each consultation in an
/// unoptimised build.
public final class SimPlan: Sendable {
    public let scenario: SimScenario
    /// Simulated time at which the MCU stops (the scenario's `end`, else a minute after the last event).
    public let endMs: Int64
    /// The trips as driven, for a demo or a test to compare the service's trips with.
    public let trips: [SimTripSummary]
    /// Refuels of fuel stops: not on the link; a demo enters them as the family would.
    public let refuels: [SimRefuel]
    /// The tags the scenario presents (drivers' tags first, in declaration order).
    public let tags: [SimTagPlan]

    let actions: [PlannedAction]
    let drives: [DriveTrack]
    let parkedStart: GeoPoint
    let advertisers: [AdvertiserPlan]
    /// Intervals in which the GNSS receiver is powered: [on, off).
    let gnssWindows: [(on: Int64, off: Int64)]
    let terrain: Terrain

    init(
        scenario: SimScenario, endMs: Int64, trips: [SimTripSummary], refuels: [SimRefuel], tags: [SimTagPlan],
        actions: [PlannedAction], drives: [DriveTrack], parkedStart: GeoPoint, advertisers: [AdvertiserPlan],
        gnssWindows: [(on: Int64, off: Int64)], terrain: Terrain
    ) {
        self.scenario = scenario
        self.endMs = endMs
        self.trips = trips
        self.refuels = refuels
        self.tags = tags
        self.actions = actions
        self.drives = drives
        self.parkedStart = parkedStart
        self.advertisers = advertisers
        self.gnssWindows = gnssWindows
        self.terrain = terrain
    }

    /// The tag of the driver called `name`, with its UID (derived from the seed when the scenario gives none).
    public func tag(ofDriver name: String) -> SimTagPlan? {
        tags.first { $0.driver?.lowercased() == name.lowercased() }
    }

    /// UTC of a simulated time.
    public func utc(_ simMs: Int64) -> UTCTimestamp {
        UTCTimestamp(millisecondsSinceEpoch: scenario.startUTCMilliseconds + simMs)
    }

    /// `Mon 07:41:06` in the scenario's local time.
    public func localText(_ simMs: Int64) -> String {
        ISO8601.weekdaySecond(utcMs: scenario.startUTCMilliseconds + simMs + Int64(scenario.utcOffsetMinutes) * 60_000)
    }

    /// The car's state at `time`: on a drive, or parked where the last one ended.
    func vehicle(at time: Int64, hint: inout Int) -> (sample: DriveTrack.Sample, moving: Bool) {
        if hint >= drives.count || (hint > 0 && drives[hint - 1].endMs > time) { hint = 0 }
        while hint < drives.count && drives[hint].endMs < time { hint += 1 }
        if hint < drives.count && drives[hint].startMs <= time {
            return (drives[hint].state(at: time), true)
        }
        if hint > 0 {
            var parked = drives[hint - 1].samples[drives[hint - 1].samples.count - 1]
            parked.speedMetersPerSecond = 0
            return (parked, false)
        }
        return (DriveTrack.Sample(
            position: parkedStart, speedMetersPerSecond: 0, courseDegrees: 0,
            altitudeMeters: terrain.altitude(at: parkedStart), distanceMeters: 0), false)
    }

    /// Whether the receiver is powered at `time`, and since when.
    func gnssPoweredSince(_ time: Int64) -> Int64? {
        var low = 0
        var high = gnssWindows.count
        while low < high {
            let middle = (low + high) / 2
            if gnssWindows[middle].off <= time { low = middle + 1 } else { high = middle }
        }
        guard low < gnssWindows.count, gnssWindows[low].on <= time else { return nil }
        return gnssWindows[low].on
    }

    /// The first time at or after `time` at which the receiver is powered; nil: never again.
    func nextGNSSPowerOn(atOrAfter time: Int64) -> Int64? {
        for window in gnssWindows where window.off > time { return max(window.on, time) }
        return nil
    }
}

/// A discrete event at a simulated time.
struct PlannedAction: Sendable {
    enum Kind: Sendable {
        /// A tag enters the reader's field.
        case present(tag: Int)
        case ignition(Bool)
        case reboot
        case unplug(durationMs: Int64)
        case noise(LineNoiseSettings)
        case garbage(bytes: Int)
        case log(MCULog.Level, String)
        /// For the event log only (a trip starts, a driver gets out).
        case note(String)
        case end
    }

    var timeMs: Int64
    var kind: Kind
}

/// A stretch of time during which an advertiser is in the scanner's range.
struct PresenceSegment: Sendable, Equatable {
    var startMs: Int64
    var endMs: Int64
    /// Distance to the dongle at the start and at the end, metres.
    var fromMeters: Double
    var toMeters: Double
    /// Inside the car's cabin (no body loss).
    var inside: Bool

    func distance(at time: Int64) -> Double {
        guard endMs > startMs else { return toMeters }
        let f = Double(time - startMs) / Double(endMs - startMs)
        return fromMeters + (toMeters - fromMeters) * min(1, max(0, f))
    }
}

/// A BLE advertiser and when it is near.
struct AdvertiserPlan: Sendable {
    enum Source: Sendable {
        case fob(driver: String, identity: BeaconIdentity)
        case stranger(SimStrangerKind, identity: BeaconIdentity?)
    }

    var label: String
    var source: Source
    var intervalMs: Int64
    /// Measured power: RSSI at 1 m in the open.
    var powerDBm: Double
    var segments: [PresenceSegment]
    var seed: UInt64
}
