import FairFuelCore
@testable import FairFuelSimulation
import FairFuelDomain
import FairFuelParsers
import Foundation
import TestSupport
import Testing

@Suite struct RouteTests {
    static let start = GeoPoint(latitude: 48.135_1, longitude: 11.582_0)
    static let terrain = Terrain(plane: LocalPlane(origin: start), baseMeters: 519)

    static func route(_ kind: SimRouteKind, length: Double? = nil, to destination: GeoPoint? = nil, stops: [(Double?, Int64)] = [], seed: UInt64 = 1)
        -> DriveTrack
    {
        RouteGenerator.generate(RouteGenerator.Request(
            kind: kind, start: start, destination: destination, lengthMeters: length,
            stops: stops.map { (atMeters: $0.0, durationMs: $0.1) }, terrain: terrain, seed: seed))
    }

    @Test(arguments: SimRouteKind.allCases)
    func loopsHaveTheirLengthAndComeBack(_ kind: SimRouteKind) {
        let length = kind == .motorway || kind == .mixed ? 30_000.0 : 4000
        let track = Self.route(kind, length: length)
        #expect(abs(track.distanceMeters - length) < length * 0.02)
        #expect(LocalPlane.distance(track.samples.last!.position, Self.start) < 25)
        #expect(track.samples.first!.speedMetersPerSecond == 0)
        #expect(track.samples.last!.speedMetersPerSecond == 0)
        let top = track.samples.map(\.speedMetersPerSecond).max()!
        let limit = kind == .urban ? 14.7 : kind == .suburban ? 17.6 : 35.5
        #expect(top <= limit, "top speed \(top) m/s")
        var harshSeconds = 0
        for (a, b) in zip(track.samples, track.samples.dropFirst()) {
            // A car's braking and acceleration: under the harsh threshold but for a rare late braking or hard start.
            let change = abs(b.speedMetersPerSecond - a.speedMetersPerSecond)
            #expect(change <= RouteGenerator.hardDeceleration + 0.05)
            if change > MotionThresholds().harshMetersPerSecondSquared { harshSeconds += 1 }
            let step = LocalPlane.distance(a.position, b.position)
            #expect(abs(step - (b.distanceMeters - a.distanceMeters)) < 6)  // a chord across a corner is shorter
        }
        #expect(harshSeconds * 50 < track.samples.count, "\(harshSeconds) harsh seconds of \(track.samples.count)")
    }

    @Test func routesToAPlaceEndThere() {
        let school = GeoPoint(latitude: 48.146_3, longitude: 11.567_9)
        let track = Self.route(.urban, to: school, seed: 4)
        #expect(LocalPlane.distance(track.samples.last!.position, school) < 5)
        let crow = LocalPlane.distance(Self.start, school)
        #expect(track.distanceMeters > crow && track.distanceMeters < crow * 1.8)
    }

    @Test func scriptedStopsStandStillForTheirDuration() {
        let track = Self.route(.suburban, length: 5000, stops: [(1000, 40_000), (nil, 120_000)])
        let scripted = track.stops.filter { $0.scriptedIndex != nil }
        #expect(scripted.count == 2)
        #expect(scripted[0].endMs - scripted[0].startMs == 40_000)
        #expect(scripted[1].endMs - scripted[1].startMs == 120_000)
        let during = track.state(at: scripted[1].startMs + 60_000)
        #expect(during.speedMetersPerSecond == 0)
        #expect(abs(track.state(at: scripted[0].startMs + 1000).distanceMeters - 1000) < 10)
    }

    /// The shipped route log is a golden output of the route generator and the GNSS model.
    @Test func shippedRouteLogIsCurrent() throws {
        let path = SimFixture.scenariosDirectory + "/routes/lake-loop.nmea"
        let text = Self.generatedRouteLog()
        let expected = try Golden.expected(at: path, actual: text)
        #expect(text == expected, "regenerate with FAIRFUEL_REGENERATE_GOLDEN=1 swift test --filter RouteTests")
    }

    @Test func anNMEALogBecomesATrack() throws {
        let original = Self.lakeLoop()
        let bytes = Array(Self.generatedRouteLog().utf8)
        let track = try NMEALogRoute.track(fromLog: bytes, terrain: Self.terrain)
        #expect(abs(track.samples.count - original.samples.count) <= 1)
        for index in stride(from: 0, to: min(track.samples.count, original.samples.count), by: 30) {
            // The log carries the GNSS model's error (a few metres).
            #expect(LocalPlane.distance(track.samples[index].position, original.samples[index].position) < 15)
        }
        #expect(abs(track.distanceMeters - original.distanceMeters) < original.distanceMeters * 0.08)
    }

    static let telitLog = PackagePaths.shared + "/corpus/nmea/gpsd/telit-he910.log"

    /// A real receiver's log (gpsd's regression set, BSD-2 but kept in ../shared: read from
    /// there, skipped with a reason in a clone without it).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: telitLog), "needs ../shared/corpus/nmea/gpsd (absent in a user's clone)"))
    func aRealReceiverLogBecomesATrack() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.telitLog)))
        let track = try NMEALogRoute.track(fromLog: bytes, terrain: Self.terrain)
        #expect(track.samples.count >= 2)
        #expect(track.samples.allSatisfy { abs($0.position.latitude) <= 90 && abs($0.position.longitude) <= 180 })
        // A car's log, a sample a second: no step further than a car goes in one (60 m/s), and
        // the distance the track counts adds up to its steps.
        for (index, (a, b)) in zip(track.samples, track.samples.dropFirst()).enumerated() {
            #expect(Self.meters(a.position, b.position) < 60, "a jump after sample \(index)")
            #expect(b.distanceMeters >= a.distanceMeters)
        }
    }

    static func meters(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        let dLat = (b.latitude - a.latitude) * 111_195
        let dLon = (b.longitude - a.longitude) * 111_195 * cos(a.latitude * .pi / 180)
        return (dLat * dLat + dLon * dLon).squareRoot()
    }

    static func lakeLoop() -> DriveTrack {
        let start = GeoPoint(latitude: 47.992_0, longitude: 11.341_0)
        return RouteGenerator.generate(RouteGenerator.Request(
            kind: .suburban, start: start, destination: nil, lengthMeters: 7000, stops: [(nil, 45_000)],
            terrain: Terrain(plane: LocalPlane(origin: start), baseMeters: 590), seed: 77))
    }

    static func generatedRouteLog() -> String {
        let track = lakeLoop()
        var settings = GNSSSettings()
        settings.talker = "GN"
        settings.sentences = [.rmc, .gga, .gsa]
        var gnss = GNSSReceiverModel(settings: settings, seed: 77)
        let startUTC = UTCTimestamp(date: UTCDate(year: 2025, month: 9, day: 14)!, time: UTCTimeOfDay(hour: 9, minute: 12, second: 0)!)
        var text = """
            # lake-loop.nmea: a 7 km suburban loop at 1 Hz (GN RMC, GGA, GSA), 2025-09-14 09:12 UTC.
            # Synthetic: made by FairFuelSimulation's route generator and GNSS model (seed 77), not
            # recorded from a receiver, so that the repository ships no third-party log. Regenerate:
            #   FAIRFUEL_REGENERATE_GOLDEN=1 swift test --filter RouteTests

            """
        var time: Int64 = 0
        while time <= track.durationMs {
            for (_, sentence) in gnss.epoch(
                utcMs: startUTC.millisecondsSinceEpoch + time, simMs: time, state: track.state(at: time), hasFix: true)
            {
                text += sentence + "\r\n"
            }
            time += 1000
        }
        return text
    }
}
