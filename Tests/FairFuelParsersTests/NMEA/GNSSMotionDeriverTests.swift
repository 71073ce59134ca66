import FairFuelParsers
import Testing

@Suite struct GNSSMotionDeriverTests {
    /// 1e-5 degree of latitude near 45°N is 1.1113 m (WGS 84 meridian arc).
    static let metersPerDegreeLatitude45 = 111_131.75

    @Test func ellipsoidalDistance() {
        // One degree of latitude at the equator and at 45°N, from the WGS 84 meridian arc.
        let equator = GNSSMotionDeriver.distanceAndBearing(0, 10, 1, 10)
        #expect(abs(equator.meters - 110_574.39) < 0.1, "\(equator.meters)")
        #expect(abs(equator.degrees - 0) < 1e-9)
        let east = GNSSMotionDeriver.distanceAndBearing(45, 10, 45, 10.001)
        #expect(abs(east.meters - 78.847) < 0.01, "\(east.meters)")
        #expect(abs(east.degrees - 90) < 0.01)
        #expect(GNSSMotionDeriver.distanceAndBearing(45, 10, 45, 10).meters == 0)
    }

    @Test func stepGapAndJump() {
        var deriver = GNSSMotionDeriver()
        let d = 1e-4  // about 11 m of latitude
        #expect(deriver.observe(time: utcTime(12, 0, 0), latitude: 45, longitude: 7) == nil)  // first anchor
        // 0.5 s later: below the minimum step, nothing derived yet.
        #expect(deriver.observe(time: utcTime(12, 0, 0, 500), latitude: 45 + d / 2, longitude: 7) == nil)
        let first = deriver.observe(time: utcTime(12, 0, 1), latitude: 45 + d, longitude: 7)
        #expect(first != nil && abs(first!.metersPerSecond - 11.11) < 0.02 && abs(first!.course! - 0) < 1e-6)
        // Inside the next step: the last derived value repeats.
        let carried = deriver.observe(time: utcTime(12, 0, 1, 500), latitude: 45 + 1.5 * d, longitude: 7)
        #expect(carried?.metersPerSecond == first?.metersPerSecond)
        // A move under a metre: speed, but no course.
        let slow = deriver.observe(time: utcTime(12, 0, 2), latitude: 45 + d + 5e-6, longitude: 7)
        #expect(slow != nil && slow!.course == nil && slow!.metersPerSecond < 1)
        // A jump of 1 km in a second: refused, and the jump point is the new anchor.
        #expect(deriver.observe(time: utcTime(12, 0, 3), latitude: 45.01, longitude: 7) == nil)
        #expect(deriver.jumpCount == 1)
        let after = deriver.observe(time: utcTime(12, 0, 4), latitude: 45.01 + d, longitude: 7)
        #expect(after != nil && abs(after!.metersPerSecond - 11.11) < 0.02)
        // A 6 s gap: nothing derived, the path in between is unknown.
        #expect(deriver.observe(time: utcTime(12, 0, 10), latitude: 45.01 + 2 * d, longitude: 7) == nil)
        // Time going backwards: nothing either.
        #expect(deriver.observe(time: utcTime(12, 0, 9), latitude: 45.01 + 2 * d, longitude: 7) == nil)
    }

    @Test func stepAcrossMidnight() {
        var deriver = GNSSMotionDeriver()
        _ = deriver.observe(time: utcTime(23, 59, 59, 500), latitude: 0, longitude: 0)
        let across = deriver.observe(time: utcTime(0, 0, 0, 500), latitude: 0, longitude: 1e-4)
        #expect(across != nil && abs(across!.metersPerSecond - 11.13) < 0.02 && abs(across!.course! - 90) < 1e-6)
    }

    /// GGA-only epochs get a derived speed marked as such; RMC's own speed is never replaced.
    @Test func assemblerMarksDerivedSpeed() {
        let fixes = assembleFixes([
            nmea("GPRMC,120000,A,4500.0000,N,00700.0000,E,10.0,0.0,010125,,,A"),
            nmea("GPGGA,120000,4500.0000,N,00700.0000,E,1,08,0.9,100.0,M,47.0,M,,"),
            nmea("GPGGA,120001,4500.0060,N,00700.0000,E,1,08,0.9,100.0,M,47.0,M,,"),
            nmea("GPGGA,120002,4500.0120,N,00700.0000,E,1,08,0.9,100.0,M,47.0,M,,"),
        ])
        #expect(fixes.count == 3)
        #expect(fixes[0].motionIsDerived == false && nearlyEqual(fixes[0].speed?.value, 10 * 1852 / 3600.0, 1e-9))
        #expect(fixes[1].motionIsDerived && nearlyEqual(fixes[1].speed?.value, 11.113, 0.01))
        #expect(fixes[2].utc?.iso8601 == "2025-01-01T12:00:02.000Z")
        #expect(fixes[2].jsonLine.hasSuffix(#""talker":"GP","derived":true}"#), "\(fixes[2].jsonLine)")
    }

    /// A GLL-only receiver: position and time from GLL alone (2D), speed derived, date carried from one RMC.
    @Test func gllOnlyPositions() {
        let fixes = assembleFixes([
            nmea("GPRMC,120000,A,4500.0000,N,00700.0000,E,0.0,0.0,010125,,,A"),
            nmea("GPGLL,4500.0060,N,00700.0000,E,120001,A,A"),
            nmea("GPGLL,4500.0120,N,00700.0000,E,120002,A,A"),
        ])
        #expect(fixes.count == 3)
        #expect(fixes.dropFirst().allSatisfy { $0.mode == .fix2D && $0.motionIsDerived && $0.talker == .gps })
        #expect(nearlyEqual(fixes[2].speed?.value, 11.113, 0.01) && nearlyEqual(fixes[2].course, 0, 1e-6))
        #expect(fixes[2].utc?.iso8601 == "2025-01-01T12:00:02.000Z")
    }
}
