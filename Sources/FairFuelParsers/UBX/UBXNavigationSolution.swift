import FairFuelCore

/// A u-blox navigation solution as a fix: UBX NAV-PVT (class 0x01, id 0x07) and
/// HNR-PVT (0x28 0x00, the high-rate dead-reckoning output of automotive modules).
///
/// Used for receivers whose position reaches us only in binary (NMEA turned off);
/// `NMEAFixDecoder` prefers NMEA when both come. Offsets are from the u-blox
/// interface description (M8 and later); the packet's checksum was checked by the lexer.
public enum UBXNavigationSolution {
    /// The fix in a whole UBX packet (from `B5 62` to the checksum), or nil when the
    /// packet is another message, shorter than its layout, or has no valid date and time.
    ///
    /// Time: the UTC fields plus `nano` rounded to the millisecond. Mode: 3D for a 3D
    /// or GNSS+dead-reckoning fix, 2D for 2D or dead reckoning only, no fix otherwise
    /// or when the fix-OK flag is clear. Speed is the ground speed, course the heading of motion.
    public static func fix(_ packet: Span<UInt8>) -> GNSSFix? {
        guard packet.count >= 8, packet[0] == 0xB5, packet[1] == 0x62 else { return nil }
        let payload = 6
        let length = packet.count - 8
        // Offsets: nano, fix type, flags, lon, lat, hMSL, gSpeed, headMot, satellites (-1: none).
        let layout: (nano: Int, fixType: Int, flags: Int, lon: Int, lat: Int, msl: Int, speed: Int, heading: Int, sats: Int)
        switch (packet[2], packet[3]) {
        case (0x01, 0x07) where length >= 92: layout = (16, 20, 21, 24, 28, 36, 60, 64, 23)
        case (0x28, 0x00) where length >= 72: layout = (12, 16, 17, 20, 24, 32, 36, 44, -1)
        default: return nil
        }
        func u8(_ offset: Int) -> Int { Int(packet[payload + offset]) }
        func i32(_ offset: Int) -> Int {
            let base = payload + offset
            let raw = UInt32(packet[base]) | UInt32(packet[base + 1]) << 8 | UInt32(packet[base + 2]) << 16
                | UInt32(packet[base + 3]) << 24
            return Int(Int32(bitPattern: raw))
        }
        let valid = u8(11)
        guard valid & 0x03 == 0x03,  // validDate, validTime
            let date = UTCDate(year: u8(4) | u8(5) << 8, month: u8(6), day: u8(7)),
            u8(8) < 24, u8(9) < 60, u8(10) <= 60
        else { return nil }
        let nano = i32(layout.nano)
        guard nano > -1_000_000_000, nano < 1_000_000_000 else { return nil }
        let roundedMilliseconds = (nano >= 0 ? nano + 500_000 : nano - 500_000) / 1_000_000
        let milliseconds = Int64(((u8(8) * 60 + u8(9)) * 60 + u8(10)) * 1000 + roundedMilliseconds)
        let utc = UTCTimestamp(millisecondsSinceEpoch: date.daysSinceEpoch * 86_400_000 + milliseconds)
        var fix = GNSSFix(utc: utc, timeOfDay: utc.timeOfDay)
        let fixOK = u8(layout.flags) & 0x01 != 0
        switch u8(layout.fixType) {
        case 3, 4: fix.mode = fixOK ? .fix3D : .noFix
        case 1, 2: fix.mode = fixOK ? .fix2D : .noFix
        default: fix.mode = .noFix
        }
        if layout.sats >= 0 { fix.satellitesUsed = u8(layout.sats) }
        guard fix.mode >= .fix2D else { return fix }
        fix.latitude = Double(i32(layout.lat)) * 1e-7
        fix.longitude = Double(i32(layout.lon)) * 1e-7
        if fix.mode == .fix3D { fix.altitude = Meters(Double(i32(layout.msl)) / 1000) }
        fix.speed = MetersPerSecond(Double(i32(layout.speed)) / 1000)
        let heading = Double(i32(layout.heading)) * 1e-5
        fix.course = heading < 0 ? heading + 360 : heading
        return fix
    }
}
