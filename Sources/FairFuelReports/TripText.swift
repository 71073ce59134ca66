import FairFuelCore
import FairFuelParsers
import FairFuelStore

/// Trips as JSON objects and CSV rows.
public enum TripText {
    /// One trip as the `trips --json` object (field names and order are a contract).
    public static func json(_ trip: TripRow) -> String {
        var j = JSONLine()
        // Untracked driving has its own ids: a string, `u7`, never mistaken for a session's number.
        if trip.untracked { j.add("id", trip.reference) } else { j.add("id", trip.id) }
        j.add("driver", trip.driverID == nil ? nil : trip.driverName)
        UplinkPayload.addTripSummary(trip, to: &j)
        j.add("average_speed_kmh", trip.averageSpeedMetersPerSecond.map { $0 * 3.6 }, decimals: 1)
        // Continuity: a session taken up again without a tap, one continuing another after a
        // park; untracked driving's candidates (names), for `fairfuel trips confirm`.
        if trip.untracked {
            j.addRaw("candidates", json: JSONLine.array(trip.candidates.map { name in
                var quoted = ""
                JSONLine.appendQuoted(name, to: &quoted)
                return quoted
            }))
        } else {
            j.add("resumed", trip.resumedCount)
            j.add("continues", trip.continuedFrom)
        }
        return j.string
    }

    public static func jsonArray(_ trips: [TripRow]) -> String { JSONLine.array(trips.map(json)) }

    /// The CSV header; the distance, speed and fuel columns name the vehicle's units.
    public static func csvHeader(_ units: DisplayUnits) -> String {
        let d = units.distanceUnit, s = units.system == .metric ? "kmh" : "mph"
        let v = switch units.system { case .metric: "l"; case .imperial: "gal"; case .uk: "uk_gal" }
        return "id,driver,start_utc,end_utc,end_reason,distance_\(d),duration_s,moving_s,idle_s,harsh_accel,harsh_brake,max_speed_\(s),fuel_\(v),average_speed_\(s)"
    }

    /// One trip as a CSV row (RFC 4180 quoting), in the vehicle's units.
    public static func csvRow(_ trip: TripRow, units: DisplayUnits) -> String {
        let fields: [String] = [
            trip.reference, csvField(trip.driverID == nil ? "" : trip.driverName), utc(trip.startUTCMs) ?? "",
            utc(trip.endUTCMs) ?? "", trip.endReason ?? "",
            JSONLine.formatFixed(units.distance(meters: trip.distanceMeters), decimals: 3), String(trip.durationMs / 1000),
            trip.hasMotionFigures ? String(trip.movingMs / 1000) : "", trip.hasMotionFigures ? String(trip.idleMs / 1000) : "",
            trip.hasMotionFigures ? String(trip.harshAccelerations) : "", trip.hasMotionFigures ? String(trip.harshBrakings) : "",
            trip.hasMotionFigures ? JSONLine.formatFixed(units.speed(metersPerSecond: trip.maximumSpeedMetersPerSecond), decimals: 1) : "",
            JSONLine.formatFixed(units.volume(liters: trip.fuelLiters), decimals: 3),
            trip.averageSpeedMetersPerSecond.map { JSONLine.formatFixed(units.speed(metersPerSecond: $0), decimals: 1) } ?? "",
        ]
        return fields.joined(separator: ",")
    }

    /// Header and rows, each line ending in CRLF as RFC 4180 asks.
    public static func csv(_ trips: [TripRow], units: DisplayUnits) -> String {
        var text = csvHeader(units) + "\r\n"
        for trip in trips { text += csvRow(trip, units: units) + "\r\n" }
        return text
    }

    /// A field quoted when it holds a comma, a quote or a line break; a leading `=+-@` is
    /// defused with a quote mark so that a spreadsheet never runs a driver's name as a formula.
    public static func csvField(_ text: String) -> String {
        var value = text
        if let first = value.unicodeScalars.first, "=+-@".unicodeScalars.contains(first) { value = "'" + value }
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        var quoted = "\""
        for character in value { quoted += character == "\"" ? "\"\"" : String(character) }
        return quoted + "\""
    }

    /// ISO 8601 of UTC milliseconds; nil stays nil.
    public static func utc(_ milliseconds: Int64?) -> String? {
        UplinkPayload.utc(milliseconds)
    }
}
