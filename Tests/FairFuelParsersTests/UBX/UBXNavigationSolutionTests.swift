import FairFuelParsers
import Testing

/// NAV-PVT and HNR-PVT payloads laid out from the u-blox M8 interface description.
/// The fix of a whole UBX packet (a wrapper: spans cannot enter #expect).
func solution(_ packet: [UInt8]) -> GNSSFix? { UBXNavigationSolution.fix(packet.span) }

@Suite struct UBXNavigationSolutionTests {
    static func put32(_ value: Int32, _ bytes: inout [UInt8], at offset: Int) {
        let raw = UInt32(bitPattern: value)
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: raw >> (8 * UInt32(index))) }
    }

    /// 2024-01-30 15:31:52 + `nano`, 48.7409605 N 9.3117328 E, 263.61 m MSL, 0.832 m/s, heading 250.9091.
    static func navPVT(nano: Int32, fixType: UInt8 = 3, flags: UInt8 = 0x01, valid: UInt8 = 0x37) -> [UInt8] {
        var payload = [UInt8](repeating: 0, count: 92)
        payload[4] = 0xE8; payload[5] = 0x07  // 2024
        payload[6] = 1; payload[7] = 30; payload[8] = 15; payload[9] = 31; payload[10] = 52
        payload[11] = valid
        put32(nano, &payload, at: 16)
        payload[20] = fixType
        payload[21] = flags
        payload[23] = 11
        put32(93_117_328, &payload, at: 24)
        put32(487_409_605, &payload, at: 28)
        put32(263_610, &payload, at: 36)
        put32(832, &payload, at: 60)
        put32(25_090_910, &payload, at: 64)
        return Framing.ubx(0x01, 0x07, payload)
    }

    static func hnrPVT(nano: Int32) -> [UInt8] {
        var payload = [UInt8](repeating: 0, count: 72)
        payload[4] = 0xE8; payload[5] = 0x07
        payload[6] = 1; payload[7] = 30; payload[8] = 23; payload[9] = 59; payload[10] = 59
        payload[11] = 0x37
        put32(nano, &payload, at: 12)
        payload[16] = 4  // GNSS + dead reckoning
        payload[17] = 0x1D
        put32(-1_000_000, &payload, at: 20)
        put32(-20_000_000, &payload, at: 24)
        put32(10_000, &payload, at: 32)
        put32(13_890, &payload, at: 36)
        put32(-9_000_000, &payload, at: 44)
        return Framing.ubx(0x28, 0x00, payload)
    }

    @Test func navPVT() throws {
        let fix = try #require(solution(Self.navPVT(nano: 499_999_994)))
        #expect(fix.utc?.iso8601 == "2024-01-30T15:31:52.500Z")
        #expect(fix.mode == .fix3D && fix.satellitesUsed == 11 && fix.talker == nil && !fix.motionIsDerived)
        #expect(nearlyEqual(fix.latitude, 48.7409605) && nearlyEqual(fix.longitude, 9.3117328))
        #expect(nearlyEqual(fix.altitude?.value, 263.61) && nearlyEqual(fix.speed?.value, 0.832))
        #expect(nearlyEqual(fix.course, 250.9091))
        // A negative nano borrows from the second: 52 s - 0.42 ms is 52.000 rounded.
        #expect(solution(Self.navPVT(nano: -422_154))?.utc?.iso8601 == "2024-01-30T15:31:52.000Z")
        #expect(solution(Self.navPVT(nano: -600_000))?.utc?.iso8601 == "2024-01-30T15:31:51.999Z")
    }

    @Test func hnrPVTAcrossMidnightAndSouthWest() throws {
        let fix = try #require(solution(Self.hnrPVT(nano: 999_600_000)))
        #expect(fix.utc?.iso8601 == "2024-01-31T00:00:00.000Z")  // 23:59:59.9996 rounds into the next day
        #expect(fix.mode == .fix3D && fix.satellitesUsed == nil)
        #expect(nearlyEqual(fix.latitude, -2) && nearlyEqual(fix.longitude, -0.1))
        #expect(nearlyEqual(fix.speed?.value, 13.89) && nearlyEqual(fix.course, 270))
    }

    @Test func noFixInvalidTimeAndOtherMessages() {
        let noFix = solution(Self.navPVT(nano: 0, flags: 0))
        #expect(noFix?.mode == .noFix && noFix?.latitude == nil && noFix?.speed == nil)
        #expect(solution(Self.navPVT(nano: 0, fixType: 5))?.mode == .noFix)  // time only
        #expect(solution(Self.navPVT(nano: 0, fixType: 2))?.altitude == nil)
        #expect(solution(Self.navPVT(nano: 0, valid: 0x01)) == nil)  // time not valid
        #expect(solution(Framing.ubx(0x01, 0x07, [UInt8](repeating: 0, count: 40))) == nil)
        #expect(solution(Framing.ubx(0x01, 0x35, [UInt8](repeating: 0, count: 92))) == nil)
    }

    /// NMEA is preferred: binary fixes only where no timed sentence is within 1.5 s, in time order.
    @Test func streamPrefersNMEAAndKeepsTimeOrder() {
        let rmc = Framing.line("GPRMC,153152.00,A,4844.45763,N,00918.70397,E,0.800,250.9,300124,,,A")
        // NMEA at 52.00 with a NAV-PVT of the same second after it: one fix, NMEA's.
        var decoder = NMEAFixDecoder()
        var fixes: [GNSSFix] = []
        decoder.feed(bytes: (rmc + Self.navPVT(nano: 0))[...]) { fixes.append($0) }
        decoder.finish { fixes.append($0) }
        #expect(fixes.count == 1 && fixes[0].talker == .gps && decoder.droppedFixCount == 1)
        // Binary only: HNR at 52.1, NAV-PVT of 52.0 late: the late one is dropped.
        var binary = NMEAFixDecoder()
        var out: [GNSSFix] = []
        var hnr = Self.hnrPVT(nano: 100_000_000)
        hnr[6 + 8] = 15; hnr[6 + 9] = 31; hnr[6 + 10] = 52
        hnr = Framing.ubx(0x28, 0x00, Array(hnr[6..<(hnr.count - 2)]))
        binary.feed(bytes: (hnr + Self.navPVT(nano: 0))[...]) { out.append($0) }
        binary.finish { out.append($0) }
        #expect(out.map { $0.utc?.iso8601 } == ["2024-01-30T15:31:52.100Z"])
        #expect(binary.binaryFixCount == 1 && binary.droppedFixCount == 1)
    }
}
