import FairFuelCore

/// CASIC navigation solutions as fixes (CASIC/ZhongKeWei receivers: Quectel L76K,
/// ATGM336H, set to binary output): NAV-PV (class 0x01, id 0x03) gives position and
/// velocity, NAV-TIMEUTC (0x01 0x10) the date and time.
///
/// NAV-PV carries no time of its own, only the receiver's run time (ms since its start),
/// which NAV-TIMEUTC carries too: a NAV-PV is timed by the NAV-TIMEUTC within
/// `maximumTimingGapMs` of run time before or after it, its UTC moved by the difference.
/// Receivers send the two in either order, so a NAV-PV with no NAV-TIMEUTC yet waits for
/// the next one (one is held; an older one left waiting is counted in `untimedCount`).
/// UTC is to the second: NAV-TIMEUTC has no fraction of a second.
///
/// Offsets are from the CASIC protocol specification (V4.2.0.3, section 2.7); the packet's
/// checksum was checked by the lexer. Nothing is allocated.
public struct CASICNavigationSolution: Sendable {
    /// Longest run-time distance between a NAV-PV and the NAV-TIMEUTC that times it.
    public static let maximumTimingGapMs: Int64 = 2_000

    /// NAV-PV that found no NAV-TIMEUTC to time it, and were dropped.
    public private(set) var untimedCount = 0
    /// The last valid NAV-TIMEUTC: its run time and UTC.
    private var lastTime: (runTimeMs: UInt32, utcMs: Int64)?
    /// A NAV-PV waiting for its NAV-TIMEUTC, without its time yet.
    private var waiting: (runTimeMs: UInt32, fix: GNSSFix)?

    public init() {}

    /// Takes one whole CASIC packet (from `BA CE` to the checksum) and returns the fix it
    /// completes: a NAV-PV timed now, or the waiting one a NAV-TIMEUTC times. Nil for other
    /// messages, packets shorter than their layout, and a NAV-TIMEUTC without a valid date.
    public mutating func add(_ packet: Span<UInt8>) -> GNSSFix? {
        guard packet.count >= 10, packet[0] == 0xBA, packet[1] == 0xCE, packet[4] == 0x01 else { return nil }
        let payloadBytes = packet.count - 10
        switch packet[5] {
        case 0x03 where payloadBytes >= 80:
            let (runTime, fix) = Self.position(packet)
            if let time = lastTime, let utcMs = Self.timed(runTime, by: time) { return Self.stamped(fix, utcMs) }
            if waiting != nil { untimedCount += 1 }
            waiting = (runTime, fix)
            return nil
        case 0x10 where payloadBytes >= 24:
            guard let time = Self.utc(packet) else { return nil }
            lastTime = time
            guard let held = waiting else { return nil }
            waiting = nil
            guard let utcMs = Self.timed(held.runTimeMs, by: time) else {
                untimedCount += 1
                return nil
            }
            return Self.stamped(held.fix, utcMs)
        default:
            return nil
        }
    }

    /// Forgets the time and any waiting NAV-PV (the receiver was reset).
    public mutating func reset() {
        lastTime = nil
        waiting = nil
    }

    /// UTC of run time `runTimeMs` by the NAV-TIMEUTC `time`, nil when they are too far apart
    /// (a receiver restart starts its run time again). The run time wraps after 49.7 days.
    private static func timed(_ runTimeMs: UInt32, by time: (runTimeMs: UInt32, utcMs: Int64)) -> Int64? {
        let differenceMs = Int64(Int32(bitPattern: runTimeMs &- time.runTimeMs))
        guard abs(differenceMs) <= maximumTimingGapMs else { return nil }
        return time.utcMs + differenceMs
    }

    private static func stamped(_ fix: GNSSFix, _ utcMs: Int64) -> GNSSFix {
        var timed = fix
        let utc = UTCTimestamp(millisecondsSinceEpoch: utcMs)
        timed.utc = utc
        timed.timeOfDay = utc.timeOfDay
        return timed
    }

    /// NAV-TIMEUTC: run time U4 at 0, year U2 at 12, month, day, hour, min, sec U1 at 14-18,
    /// valid U1 at 19 (bit 0: time of week, bit 1: week number), dateValid U1 at 21 (0: none,
    /// 1: external input, 2 and 3: from satellites). Nil unless date and time are valid.
    private static func utc(_ packet: Span<UInt8>) -> (runTimeMs: UInt32, utcMs: Int64)? {
        let payload = 6
        func u8(_ offset: Int) -> Int { Int(packet[payload + offset]) }
        guard u8(19) & 0x03 == 0x03, u8(21) >= 1,
            let date = UTCDate(year: u8(12) | u8(13) << 8, month: u8(14), day: u8(15)),
            u8(16) < 24, u8(17) < 60, u8(18) <= 60
        else { return nil }
        let milliseconds = Int64(((u8(16) * 60 + u8(17)) * 60 + u8(18)) * 1000)
        return (u32(packet, payload), date.daysSinceEpoch * 86_400_000 + milliseconds)
    }

    /// NAV-PV: run time U4 at 0, posValid U1 at 4, velValid U1 at 5, numSV U1 at 7, lon R8 at
    /// 16, lat R8 at 24 (degrees), height R4 at 32 (ellipsoid), sepGeoid R4 at 36, speed2D R4
    /// at 64 (m/s), heading R4 at 68 (degrees). Validity (posValid, velValid): 6 is 2D, 7 3D,
    /// 8 GNSS with dead reckoning, 4 dead reckoning only (2D, as UBX has it); 0-3 and 5
    /// (none, external input, a rough estimate, the last position held, quick mode) no fix.
    private static func position(_ packet: Span<UInt8>) -> (runTimeMs: UInt32, fix: GNSSFix) {
        let payload = 6
        let runTime = u32(packet, payload)
        var fix = GNSSFix(mode: .noFix)
        fix.satellitesUsed = Int(packet[payload + 7])
        let mode = Self.mode(packet[payload + 4])
        let latitude = f64(packet, payload + 24)
        let longitude = f64(packet, payload + 16)
        guard mode >= .fix2D, latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else {
            return (runTime, fix)
        }
        fix.mode = mode
        fix.latitude = latitude
        fix.longitude = longitude
        let height = Double(f32(packet, payload + 32)) - Double(f32(packet, payload + 36))
        if mode == .fix3D, height.isFinite { fix.altitude = Meters(height) }
        let speed = Double(f32(packet, payload + 64))
        let heading = Double(f32(packet, payload + 68))
        if Self.mode(packet[payload + 5]) >= .fix2D, speed.isFinite, speed >= 0 {
            fix.speed = MetersPerSecond(speed)
            if heading.isFinite {
                let course = heading.truncatingRemainder(dividingBy: 360)
                fix.course = course < 0 ? course + 360 : course
            }
        }
        return (runTime, fix)
    }

    private static func mode(_ validity: UInt8) -> GNSSMode {
        switch validity {
        case 7, 8: .fix3D
        case 4, 6: .fix2D
        default: .noFix
        }
    }

    private static func u32(_ packet: Span<UInt8>, _ base: Int) -> UInt32 {
        UInt32(packet[base]) | UInt32(packet[base + 1]) << 8 | UInt32(packet[base + 2]) << 16 | UInt32(packet[base + 3]) << 24
    }

    private static func f32(_ packet: Span<UInt8>, _ base: Int) -> Float {
        Float(bitPattern: u32(packet, base))
    }

    private static func f64(_ packet: Span<UInt8>, _ base: Int) -> Double {
        Double(bitPattern: UInt64(u32(packet, base)) | UInt64(u32(packet, base + 4)) << 32)
    }
}
