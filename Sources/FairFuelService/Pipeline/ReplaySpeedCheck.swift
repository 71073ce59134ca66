import FairFuelCore
import FairFuelDomain

/// Watches a replay's trips for speeds no car reaches: distance over link time (the MCU's
/// clock, as the live service keeps it), per session (from its first trip point) and per
/// stretch of untracked driving. A capture whose MCU stamps run slower than its positions move
/// (stitched together, edited, or from an MCU with a broken clock) gives trips at hundreds of
/// km/h, and the replay says so. (A sped-up simulator's capture is fine: its MCU stamps keep
/// the simulated pace.)
public struct ReplaySpeedCheck: Sendable {
    /// Above this average a trip is no car's: 300 km/h.
    public static let implausibleMetersPerSecond = 300 / 3.6
    /// Shorter stretches are not judged: a few fixes' error is not a speed.
    public static let minimumMeters = 500.0
    /// Untracked driving is judged over this long at least: a chunk counts its first step's
    /// distance but not that step's time (a straight line bridged across a tunnel).
    public static let minimumUntrackedMs: Int64 = 60_000

    /// The fastest stretch judged implausible, nil when none was.
    public private(set) var fastest: (distance: Meters, durationMs: Int64)?
    /// Stretches judged implausible (a session counts once).
    public private(set) var implausibleCount = 0
    /// The open session's first trip point, and whether it was counted already.
    private var sessionStart: (at: LinkMilliseconds, distance: Meters)?
    private var sessionCounted = false

    public init() {}

    /// The fastest implausible stretch's average speed, km/h.
    public var fastestKilometersPerHour: Double? {
        fastest.map { $0.durationMs > 0 ? $0.distance.value / Double($0.durationMs) * 3_600 : .infinity }
    }

    /// Looks at one domain output of the replay.
    public mutating func observe(_ output: DomainOutput) {
        switch output {
        case .sessionStarted, .sessionResumed, .sessionEnded:
            sessionStart = nil
            sessionCounted = false
        case let .tripPoint(point):
            guard let start = sessionStart else {
                sessionStart = (point.at, point.distance)
                return
            }
            if judge(point.distance - start.distance, point.at.value - start.at.value), !sessionCounted {
                sessionCounted = true
                implausibleCount += 1
            }
        case let .untrackedDriving(chunk):
            let durationMs = chunk.to.value - chunk.from.value
            if durationMs >= Self.minimumUntrackedMs, judge(chunk.distance, durationMs) { implausibleCount += 1 }
        default:
            break
        }
    }

    /// Whether `distance` in `durationMs` is faster than a car goes; keeps the fastest.
    private mutating func judge(_ distance: Meters, _ durationMs: Int64) -> Bool {
        guard distance.value >= Self.minimumMeters,
            distance.value > Self.implausibleMetersPerSecond * Double(max(0, durationMs)) / 1_000
        else { return false }
        // Faster: more metres per millisecond (cross-multiplied, so that a zero duration is the fastest).
        if fastest.map({ distance.value * Double($0.durationMs) > $0.distance.value * Double(durationMs) }) ?? true {
            fastest = (distance, durationMs)
        }
        return true
    }
}
