/// Writes NMEA 0183 sentences with correct checksums, as a GNSS receiver would.
public enum NMEASentenceWriter {
    /// `$` + body + `*HH` (no CR LF: the MCU strips it before framing).
    public static func sentence(_ body: String) -> String {
        var checksum: UInt8 = 0
        for byte in body.utf8 { checksum ^= byte }
        let hex = String(checksum, radix: 16, uppercase: true)
        return "$" + body + "*" + (hex.count == 1 ? "0" + hex : hex)
    }

    /// `hhmmss.ss` of UTC milliseconds within the day.
    static func time(_ millisecondsOfDay: Int64) -> String {
        let centiseconds = (millisecondsOfDay / 10) % 8_640_000
        let hours = centiseconds / 360_000
        let minutes = centiseconds / 6000 % 60
        let seconds = centiseconds / 100 % 60
        let fraction = centiseconds % 100
        return two(hours) + two(minutes) + two(seconds) + "." + two(fraction)
    }

    /// `ddmmyy` of a civil date.
    static func date(year: Int, month: Int, day: Int) -> String {
        two(Int64(day)) + two(Int64(month)) + two(Int64(year % 100))
    }

    /// `ddmm.mmmmm,N` or `dddmm.mmmmm,E` for signed degrees.
    static func coordinate(_ degrees: Double, isLatitude: Bool) -> String {
        let hemisphere = isLatitude ? (degrees < 0 ? "S" : "N") : (degrees < 0 ? "W" : "E")
        // Work in 1e-5 minutes so that rounding never shows 60 minutes.
        let totalUnits = Int64((abs(degrees) * 60 * 100_000).rounded())
        let wholeDegrees = totalUnits / (60 * 100_000)
        let minuteUnits = totalUnits % (60 * 100_000)
        let minutes = minuteUnits / 100_000
        let fraction = minuteUnits % 100_000
        var text = String(wholeDegrees)
        let width = isLatitude ? 2 : 3
        text = String(repeating: "0", count: max(0, width - text.count)) + text
        var fractionText = String(fraction)
        fractionText = String(repeating: "0", count: 5 - fractionText.count) + fractionText
        return text + two(minutes) + "." + fractionText + "," + hemisphere
    }

    static func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }

    static func fixed(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let units = Int64((abs(value) * scale).rounded())
        let whole = units / Int64(scale)
        var fraction = String(units % Int64(scale))
        fraction = String(repeating: "0", count: decimals - fraction.count) + fraction
        return (value < 0 && units != 0 ? "-" : "") + String(whole) + (decimals > 0 ? "." + fraction : "")
    }

    /// RMC with a valid fix (status A, mode A).
    public static func rmc(
        utcMillisecondsOfDay: Int64, year: Int, month: Int, day: Int, latitude: Double,
        longitude: Double, speedMetersPerSecond: Double, courseDegrees: Double, talker: String = "GP"
    ) -> String {
        let knots = speedMetersPerSecond * 3600 / 1852
        return sentence(
            "\(talker)RMC,\(time(utcMillisecondsOfDay)),A,\(coordinate(latitude, isLatitude: true)),"
                + "\(coordinate(longitude, isLatitude: false)),\(fixed(knots, decimals: 2)),"
                + "\(fixed(courseDegrees, decimals: 1)),\(date(year: year, month: month, day: day)),,,A")
    }

    /// RMC without a fix (status V, mode N): a receiver still searching, or a car in a garage.
    public static func rmcWithoutFix(utcMillisecondsOfDay: Int64, year: Int, month: Int, day: Int, talker: String = "GP") -> String {
        sentence("\(talker)RMC,\(time(utcMillisecondsOfDay)),V,,,,,,,\(date(year: year, month: month, day: day)),,,N")
    }

    /// GGA with a GPS fix.
    public static func gga(
        utcMillisecondsOfDay: Int64, latitude: Double, longitude: Double, satellites: Int,
        hdop: Double, altitudeMeters: Double, talker: String = "GP"
    ) -> String {
        sentence(
            "\(talker)GGA,\(time(utcMillisecondsOfDay)),\(coordinate(latitude, isLatitude: true)),"
                + "\(coordinate(longitude, isLatitude: false)),1,\(two(Int64(satellites))),"
                + "\(fixed(hdop, decimals: 1)),\(fixed(altitudeMeters, decimals: 1)),M,46.9,M,,")
    }

    /// GSA: automatic 3D fix with the given satellites and dilutions.
    public static func gsa(satellites: [Int], pdop: Double, hdop: Double, vdop: Double, talker: String = "GP") -> String {
        var fields = satellites.prefix(12).map { two(Int64($0)) }
        while fields.count < 12 { fields.append("") }
        return sentence(
            "\(talker)GSA,A,3,\(fields.joined(separator: ",")),\(fixed(pdop, decimals: 1)),"
                + "\(fixed(hdop, decimals: 1)),\(fixed(vdop, decimals: 1))")
    }
}
