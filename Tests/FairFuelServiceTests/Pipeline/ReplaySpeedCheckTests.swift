import FairFuelCore
import FairFuelDomain
import FairFuelService
import Testing

/// What the replay's speed warning judges: distance over capture time, per session and per
/// stretch of untracked driving, never a tunnel's bridged straight line.
@Suite struct ReplaySpeedCheckTests {
    static let driver = DriverID(1)

    /// A session's trip points, one a second at `metersPerSecond`, for `seconds`.
    static func session(metersPerSecond: Double, seconds: Int, from startMs: Int64 = 0, into check: inout ReplaySpeedCheck) {
        check.observe(.sessionStarted(driver: driver, at: LinkMilliseconds(startMs)))
        for second in 0...seconds {
            check.observe(.tripPoint(TripPoint(
                driver: driver, at: LinkMilliseconds(startMs + Int64(second) * 1_000), latitude: 48, longitude: 11,
                speed: MetersPerSecond(metersPerSecond), distance: Meters(metersPerSecond * Double(second)), fuel: .zero)))
        }
    }

    @Test("a motorway trip at 200 km/h is a car's; 2.63 km in 11 s is not, and is counted once")
    func sessions() throws {
        var check = ReplaySpeedCheck()
        Self.session(metersPerSecond: 200 / 3.6, seconds: 600, into: &check)
        #expect(check.implausibleCount == 0 && check.fastest == nil)
        Self.session(metersPerSecond: 2_630.0 / 11, seconds: 11, from: 1_000_000, into: &check)
        #expect(check.implausibleCount == 1)
        let kilometersPerHour = try #require(check.fastestKilometersPerHour)
        #expect(abs(kilometersPerHour - 860.7) < 1, "\(kilometersPerHour)")
    }

    @Test("untracked driving: a tunnel's straight line in a short chunk is no speed; a minute at 400 km/h is")
    func untracked() {
        var check = ReplaySpeedCheck()
        // The first step of a chunk counts its distance and not its time: 1.2 km bridged, 2 s of chunk.
        check.observe(.untrackedDriving(UntrackedDriving(from: LinkMilliseconds(0), to: LinkMilliseconds(2_000), distance: Meters(1_200), fuel: .zero)))
        #expect(check.implausibleCount == 0)
        check.observe(.untrackedDriving(UntrackedDriving(
            from: LinkMilliseconds(10_000), to: LinkMilliseconds(70_000), distance: Meters(400 / 3.6 * 60), fuel: .zero)))
        #expect(check.implausibleCount == 1)
        #expect(check.fastest?.durationMs == 60_000)
    }
}
