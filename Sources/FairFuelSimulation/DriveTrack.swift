/// The car's motion during one drive: a state every simulated second, from moving off to parking.
public struct DriveTrack: Sendable {
    /// One second of the drive.
    public struct Sample: Sendable, Equatable {
        public var position: GeoPoint
        public var speedMetersPerSecond: Double
        /// Degrees from true north.
        public var courseDegrees: Double
        public var altitudeMeters: Double
        /// Metres driven since moving off.
        public var distanceMeters: Double
    }

    /// A stop on the way, where the car stands still.
    public struct StopWindow: Sendable, Equatable {
        public var startMs: Int64
        public var endMs: Int64
        /// Index into the trip's scripted stops; nil for a stop the route made by itself (a red light).
        public var scriptedIndex: Int?
    }

    /// Simulated time of the first sample.
    public var startMs: Int64
    /// Samples one second apart; the last one is the parked car.
    public var samples: [Sample]
    /// Stops, relative to `startMs` until the planner places the track.
    public var stops: [StopWindow]

    public var endMs: Int64 { startMs + Int64(max(samples.count - 1, 0)) * 1000 }
    public var distanceMeters: Double { samples.last?.distanceMeters ?? 0 }
    public var durationMs: Int64 { endMs - startMs }

    /// Moves the whole track (and its stops) to start at `start`.
    mutating func place(at start: Int64) {
        let shift = start - startMs
        startMs = start
        for index in stops.indices {
            stops[index].startMs += shift
            stops[index].endMs += shift
        }
    }

    /// The car's state at `time`, linearly interpolated between samples.
    public func state(at time: Int64) -> Sample {
        guard let first = samples.first else {
            return Sample(position: GeoPoint(latitude: 0, longitude: 0), speedMetersPerSecond: 0, courseDegrees: 0, altitudeMeters: 0, distanceMeters: 0)
        }
        if time <= startMs { return first }
        let offset = time - startMs
        let index = Int(offset / 1000)
        if index >= samples.count - 1 { return samples[samples.count - 1] }
        let fraction = Double(offset % 1000) / 1000
        let a = samples[index]
        let b = samples[index + 1]
        var course = b.courseDegrees
        var turn = b.courseDegrees - a.courseDegrees
        if turn > 180 { turn -= 360 }
        if turn < -180 { turn += 360 }
        course = a.courseDegrees + turn * fraction
        if course < 0 { course += 360 }
        if course >= 360 { course -= 360 }
        return Sample(
            position: GeoPoint(
                latitude: a.position.latitude + (b.position.latitude - a.position.latitude) * fraction,
                longitude: a.position.longitude + (b.position.longitude - a.position.longitude) * fraction),
            speedMetersPerSecond: a.speedMetersPerSecond + (b.speedMetersPerSecond - a.speedMetersPerSecond) * fraction,
            courseDegrees: course,
            altitudeMeters: a.altitudeMeters + (b.altitudeMeters - a.altitudeMeters) * fraction,
            distanceMeters: a.distanceMeters + (b.distanceMeters - a.distanceMeters) * fraction)
    }
}
