import FairFuelCore
import FairFuelParsers

/// A trip's track as a GPX 1.1 document (one `trk`, one `trkseg`), for any map tool.
public enum GPXWriter {
    /// `name` titles the track; `points` in time order. Points outside WGS 84's ranges are
    /// left out (GPX forbids them), so the document always validates.
    public static func document(name: String, trip: TripRow?, points: [TrackPoint]) -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="fairfuel" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">

            """
        text += "  <metadata>\n    <name>\(escape(name))</name>\n"
        if let start = trip?.startUTCMs ?? points.first?.utcMs {
            text += "    <time>\(UTCTimestamp(millisecondsSinceEpoch: start).iso8601)</time>\n"
        }
        text += "  </metadata>\n  <trk>\n    <name>\(escape(name))</name>\n"
        if let trip { text += "    <desc>\(escape(description(trip)))</desc>\n" }
        text += "    <type>driving</type>\n    <trkseg>\n"
        for point in points where isValid(point) {
            text += "      <trkpt lat=\"\(JSONLine.formatFixed(point.latitude, decimals: 7))\" lon=\"\(JSONLine.formatFixed(point.longitude, decimals: 7))\">"
            text += "<time>\(UTCTimestamp(millisecondsSinceEpoch: point.utcMs).iso8601)</time></trkpt>\n"
        }
        text += "    </trkseg>\n  </trk>\n</gpx>\n"
        return text
    }

    /// GPX's ranges: latitude [-90, 90], longitude [-180, 180).
    static func isValid(_ point: TrackPoint) -> Bool {
        point.latitude.isFinite && point.longitude.isFinite && (-90...90).contains(point.latitude)
            && point.longitude >= -180 && point.longitude < 180
    }

    static func description(_ trip: TripRow) -> String {
        "driver \(trip.driverName), \(JSONLine.formatFixed(trip.distanceMeters / 1000, decimals: 2)) km, "
            + "\(JSONLine.formatFixed(trip.fuelLiters, decimals: 2)) L estimated"
    }

    /// Text with XML's five special characters escaped; control characters XML 1.0 forbids are dropped.
    public static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                if scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r" { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
