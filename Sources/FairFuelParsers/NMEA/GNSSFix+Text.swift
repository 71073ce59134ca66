import FairFuelCore

extension GNSSFix {
    /// `{"utc":"2026-11-20T08:00:01.000Z"|null,"lat":..,"lon":..,"alt_m":..,"speed_mps":..,
    /// "course_deg":..,"mode":0...3,"sats":N|null,"hdop":x|null,"talker":"GP"|null,
    /// "derived":true|false}`; `derived` marks speed and course computed from positions.
    ///
    /// Degrees to 9 decimals (as gpsd), metres and m/s to 3, course and HDOP to 2.
    public var jsonLine: String {
        var line = JSONLine()
        line.add("utc", utc?.iso8601)
        line.add("lat", latitude, decimals: 9)
        line.add("lon", longitude, decimals: 9)
        line.add("alt_m", altitude?.value, decimals: 3)
        line.add("speed_mps", speed?.value, decimals: 3)
        line.add("course_deg", course, decimals: 2)
        line.add("mode", Int(mode.rawValue))
        line.add("sats", satellitesUsed)
        line.add("hdop", hdop, decimals: 2)
        line.add("talker", talker?.code)
        line.add("derived", motionIsDerived)
        return line.string
    }

    /// Column titles for `tableRow`.
    public static var tableHeader: String {
        GNSSFix.row([
            "utc", "lat", "lon", "alt_m", "speed_mps", "course", "mode", "sats", "hdop",
        ])
    }

    /// The fix as one line of fixed-width columns; `-` for unknown values.
    public var tableRow: String {
        func number(_ value: Double?, _ decimals: Int) -> String {
            value.map { JSONLine.formatFixed($0, decimals: decimals) } ?? "-"
        }
        let time: String
        if let utc {
            time = utc.iso8601
        } else if let timeOfDay {
            time = "(no date) " + timeOfDay.description
        } else {
            time = "-"
        }
        return GNSSFix.row([
            time, number(latitude, 7), number(longitude, 7), number(altitude?.value, 1),
            (speed.map { JSONLine.formatFixed($0.value, decimals: 2) + (motionIsDerived ? "~" : "") } ?? "-"),
            number(course, 1), GNSSFix.modeName(mode),
            satellitesUsed.map { String($0) } ?? "-", number(hdop, 2),
        ])
    }

    private static func modeName(_ mode: GNSSMode) -> String {
        switch mode {
        case .noData: "-"
        case .noFix: "nofix"
        case .fix2D: "2D"
        case .fix3D: "3D"
        }
    }

    private static let widths = [25, 14, 15, 9, 10, 7, 6, 5, 5]

    private static func row(_ cells: [String]) -> String {
        var text = ""
        for (index, cell) in cells.enumerated() {
            text += cell
            if index < cells.count - 1 {
                text += String(repeating: " ", count: max(1, widths[index] - cell.count))
            }
        }
        return text
    }
}
