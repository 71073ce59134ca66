import FairFuelCore
import FairFuelParsers
import Testing
import TestSupport

/// NAV-PV and NAV-TIMEUTC laid out from the CASIC protocol specification (V4.2.0.3, 2.7.4
/// and 2.7.5), framed by `Framing.casic` (header, length, class, id, payload, 32-bit sum).
@Suite struct CASICNavigationSolutionTests {
    static func put(_ raw: UInt64, bytes count: Int, _ payload: inout [UInt8], at offset: Int) {
        for index in 0..<count { payload[offset + index] = UInt8(truncatingIfNeeded: raw >> (8 * UInt64(index))) }
    }

    /// A NAV-PV: 3D, 12 satellites, `latitude` N 121.47 E, 30 m ellipsoidal height with 21.5 m
    /// of geoid separation (8.5 m above sea level), 12 m/s heading 180.
    static func navPV(runTimeMs: UInt32, latitude: Double, posValid: UInt8 = 7, velValid: UInt8 = 7, heading: Float = 180) -> [UInt8] {
        var payload = [UInt8](repeating: 0, count: 80)
        put(UInt64(runTimeMs), bytes: 4, &payload, at: 0)
        payload[4] = posValid
        payload[5] = velValid
        payload[6] = 0x03  // GPS and BDS
        payload[7] = 12
        put(UInt64(Float(1.2).bitPattern), bytes: 4, &payload, at: 12)
        put(Double(121.47).bitPattern, bytes: 8, &payload, at: 16)
        put(latitude.bitPattern, bytes: 8, &payload, at: 24)
        put(UInt64(Float(30).bitPattern), bytes: 4, &payload, at: 32)
        put(UInt64(Float(21.5).bitPattern), bytes: 4, &payload, at: 36)
        put(UInt64(Float(-12).bitPattern), bytes: 4, &payload, at: 48)  // velN
        put(UInt64(Float(12).bitPattern), bytes: 4, &payload, at: 60)  // speed3D
        put(UInt64(Float(12).bitPattern), bytes: 4, &payload, at: 64)  // speed2D
        put(UInt64(heading.bitPattern), bytes: 4, &payload, at: 68)
        return Framing.casic(0x01, 0x03, payload)
    }

    /// A NAV-TIMEUTC of 2023-09-09 04:20:`second`.
    static func timeUTC(runTimeMs: UInt32, second: UInt8, valid: UInt8 = 0x07, dateValid: UInt8 = 3) -> [UInt8] {
        var payload = [UInt8](repeating: 0, count: 24)
        put(UInt64(runTimeMs), bytes: 4, &payload, at: 0)
        put(2023, bytes: 2, &payload, at: 12)
        payload[14] = 9; payload[15] = 9; payload[16] = 4; payload[17] = 20; payload[18] = second
        payload[19] = valid
        payload[20] = 0  // GPS time
        payload[21] = dateValid
        return Framing.casic(0x01, 0x10, payload)
    }

    /// Six epochs at 1 Hz driving south at 12 m/s; `timeFirst`: NAV-TIMEUTC before NAV-PV in each.
    static func epochs(timeFirst: Bool, from firstSecond: Int = 0, count: Int = 6) -> [[UInt8]] {
        (firstSecond..<(firstSecond + count)).map { second in
            let runTime = UInt32(80_000 + second * 1_000)
            let pv = navPV(runTimeMs: runTime, latitude: 31.23 - Double(second) * 12 / 111_195)
            let time = timeUTC(runTimeMs: runTime, second: UInt8(second))
            return timeFirst ? time + pv : pv + time
        }
    }

    static func fixes(_ bytes: [UInt8], chunks: [Int] = [Int.max]) -> (fixes: [GNSSFix], decoder: NMEAFixDecoder) {
        var decoder = NMEAFixDecoder()
        var out: [GNSSFix] = []
        var start = 0
        var chunk = 0
        while start < bytes.count {
            let end = min(bytes.count, start + min(chunks[chunk % chunks.count], bytes.count - start))
            chunk += 1
            decoder.feed(bytes: bytes[start..<end]) { out.append($0) }
            start = end
        }
        decoder.finish { out.append($0) }
        return (out, decoder)
    }

    @Test("a CASIC-only receiver gives one fix per epoch, whichever message of the epoch comes first")
    func casicOnlyReceiver() throws {
        for timeFirst in [true, false] {
            let (fixes, decoder) = Self.fixes(Self.epochs(timeFirst: timeFirst).flatMap { $0 })
            #expect(fixes.map { $0.utc?.iso8601 } == (0..<6).map { "2023-09-09T04:20:0\($0).000Z" }, "time first: \(timeFirst)")
            let fix = try #require(fixes.last)
            #expect(fix.mode == .fix3D && fix.satellitesUsed == 12 && fix.talker == nil && !fix.motionIsDerived)
            #expect(nearlyEqual(fix.latitude, 31.23 - 5 * 12 / 111_195) && nearlyEqual(fix.longitude, 121.47))
            #expect(nearlyEqual(fix.altitude?.value, 8.5, 1e-5))
            #expect(nearlyEqual(fix.speed?.value, 12) && nearlyEqual(fix.course, 180))
            #expect(decoder.binaryFixCount == 6 && decoder.lexerStats.casic == 12 && decoder.lexerStats.garbageBytes == 0)
        }
    }

    @Test("fed whole, one byte at a time or in random chunks, the fixes are the same")
    func anySplitGivesTheSameFixes() {
        let input = Self.epochs(timeFirst: false).flatMap { $0 }
        let whole = Self.fixes(input).fixes
        #expect(whole.count == 6)
        #expect(Self.fixes(input, chunks: [1]).fixes == whole)
        var random = SeededGenerator(seed: 17)
        for _ in 0..<20 {
            let chunks = (0..<8).map { _ in Int.random(in: 1...90, using: &random) }
            #expect(Self.fixes(input, chunks: chunks).fixes == whole, "chunks \(chunks)")
        }
    }

    @Test("a NAV-PV with a bad checksum, or cut short, is no fix; the epochs around it are")
    func damagedFrames() {
        var epochs = Self.epochs(timeFirst: true)
        // Epoch 2: one bit of the latitude flipped on the line; the checksum no longer matches.
        epochs[2][34 + 6 + 24 + 3] ^= 0x10
        // Epoch 4: the NAV-PV cut after 40 of its 90 bytes (the receiver was reset mid-frame).
        let timeBytes = 34
        epochs[4] = Array(epochs[4].prefix(timeBytes + 40))
        let input = epochs.flatMap { $0 }
        for chunks in [[Int.max], [1], [7, 64, 3]] {
            let (fixes, decoder) = Self.fixes(input, chunks: chunks)
            #expect(fixes.map { $0.utc?.iso8601 } == [0, 1, 3, 5].map { "2023-09-09T04:20:0\($0).000Z" }, "chunks \(chunks)")
            #expect(decoder.lexerStats.rejectedBinary >= 2 && decoder.lexerStats.isConsistent)
            #expect(decoder.lexerStats.casic == 10)
        }
    }

    @Test("no position, no valid time, other messages and short payloads are no fix")
    func noFixAndInvalid() throws {
        func decoded(_ packets: [[UInt8]]) -> [GNSSFix] {
            var solution = CASICNavigationSolution()
            var out: [GNSSFix] = []
            for packet in packets { if let fix = solution.add(packet.span) { out.append(fix) } }
            return out
        }
        let time = Self.timeUTC(runTimeMs: 5_000, second: 7)
        // Last position held (3), quick mode (5): no fix, but the epoch is there with its time.
        for posValid: UInt8 in [0, 3, 5] {
            let fixes = decoded([time, Self.navPV(runTimeMs: 5_000, latitude: 31, posValid: posValid)])
            #expect(fixes.count == 1 && fixes[0].mode == .noFix && fixes[0].latitude == nil && fixes[0].speed == nil)
            #expect(fixes[0].utc?.iso8601 == "2023-09-09T04:20:07.000Z")
        }
        // 2D: no altitude; velocity invalid: no speed.
        let flat = try #require(decoded([time, Self.navPV(runTimeMs: 5_000, latitude: 31, posValid: 6, velValid: 0)]).first)
        #expect(flat.mode == .fix2D && flat.altitude == nil && flat.speed == nil && flat.course == nil)
        // A heading of -90 degrees is 270.
        #expect(decoded([time, Self.navPV(runTimeMs: 5_000, latitude: 31, heading: -90)]).first?.course == 270)
        // Time of week not valid, or no date: the NAV-PV waits, untimed.
        #expect(decoded([Self.timeUTC(runTimeMs: 5_000, second: 7, valid: 0x02), Self.navPV(runTimeMs: 5_000, latitude: 31)]).isEmpty)
        #expect(decoded([Self.timeUTC(runTimeMs: 5_000, second: 7, dateValid: 0), Self.navPV(runTimeMs: 5_000, latitude: 31)]).isEmpty)
        // A latitude that is not one.
        #expect(decoded([time, Self.navPV(runTimeMs: 5_000, latitude: .nan)]).first?.mode == .noFix)
        #expect(decoded([time, Self.navPV(runTimeMs: 5_000, latitude: 91)]).first?.mode == .noFix)
        // NAV-SOL (0x01 0x02), a NAV-PV of 40 bytes, an ACK: nothing.
        #expect(decoded([time, Framing.casic(0x01, 0x02, [UInt8](repeating: 0, count: 72))]).isEmpty)
        #expect(decoded([time, Framing.casic(0x01, 0x03, [UInt8](repeating: 0, count: 40))]).isEmpty)
        #expect(decoded([time, Framing.casic(0x05, 0x01, [0x06, 0x01, 0, 0])]).isEmpty)
    }

    @Test("a receiver restart (run time from zero) is timed only by its own NAV-TIMEUTC")
    func receiverRestart() {
        var solution = CASICNavigationSolution()
        var out: [GNSSFix] = []
        let packets = [
            Self.timeUTC(runTimeMs: 90_000, second: 1), Self.navPV(runTimeMs: 90_000, latitude: 31),
            // Restarted: the NAV-PV's run time is nowhere near the last NAV-TIMEUTC's.
            Self.navPV(runTimeMs: 1_000, latitude: 31), Self.timeUTC(runTimeMs: 1_000, second: 9),
            // A NAV-PV never timed (its NAV-TIMEUTC lost) is dropped and counted.
            Self.navPV(runTimeMs: 9_000, latitude: 31), Self.navPV(runTimeMs: 60_000, latitude: 31),
            Self.timeUTC(runTimeMs: 60_000, second: 58),
        ]
        for packet in packets { if let fix = solution.add(packet.span) { out.append(fix) } }
        #expect(out.map { $0.utc?.iso8601 } == ["2023-09-09T04:20:01.000Z", "2023-09-09T04:20:09.000Z", "2023-09-09T04:20:58.000Z"])
        #expect(solution.untimedCount == 1)
    }

    @Test("NMEA is preferred when both come: a CASIC fix of the same second is dropped")
    func nmeaPreferred() {
        let rmc = Framing.line("GNRMC,042000.000,A,3113.8000,N,12128.2000,E,23.326,180.0,090923,,,A")
        let (fixes, decoder) = Self.fixes(rmc + Self.epochs(timeFirst: true, count: 1)[0])
        #expect(fixes.count == 1 && fixes[0].talker != nil && decoder.droppedFixCount == 1)
    }
}
