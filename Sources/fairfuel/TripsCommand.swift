import ArgumentParser
import FairFuelCore
import FairFuelParsers
import FairFuelStore

struct TripsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "trips", abstract: "List the trips (sessions).")

    @Flag(help: "Print a JSON array.")
    var json = false
    @OptionGroup var store: StoreOptions

    func run() throws {
        let sessions = try store.openReadOnly().sessions()
        if json {
            print(JSONLine.array(sessions.map(Self.json)))
            return
        }
        print(pad("id", 6) + pad("driver", 12) + pad("start (UTC)", 22) + pad("end", 12) + pad("km", 9) + pad("min", 7) + pad("idle", 7) + pad("harsh", 7) + pad("max km/h", 10) + "fuel L")
        for s in sessions {
            print(pad(String(s.id.rawValue), 6) + pad(s.driverName, 12) + pad(utc(s.startUTCMs).map { String($0.prefix(19)) } ?? "?", 22)
                + pad(s.endReason?.rawValue ?? "open", 12) + pad(JSONLine.formatFixed(s.distanceMeters / 1000, decimals: 2), 9)
                + pad(String(s.durationMs / 60_000), 7) + pad(String(s.idleMs / 60_000), 7)
                + pad("\(s.harshAccelerations)/\(s.harshBrakings)", 7)
                + pad(JSONLine.formatFixed(s.maximumSpeedMetersPerSecond * 3.6, decimals: 0), 10) + JSONLine.formatFixed(s.fuelLiters, decimals: 2))
        }
    }

    static func json(_ s: StoredSession) -> String {
        var j = JSONLine()
        j.add("id", s.id.rawValue)
        j.add("driver", s.driver == nil ? nil : s.driverName)
        j.add("start_utc", utc(s.startUTCMs))
        j.add("end_utc", utc(s.endUTCMs))
        j.add("end_reason", s.endReason?.rawValue)
        j.add("distance_km", s.distanceMeters / 1000, decimals: 3)
        j.add("duration_s", s.durationMs / 1000)
        j.add("idle_s", s.idleMs / 1000)
        j.add("harsh_accel", s.harshAccelerations)
        j.add("harsh_brake", s.harshBrakings)
        j.add("max_speed_kmh", s.maximumSpeedMetersPerSecond * 3.6, decimals: 1)
        j.add("fuel_l", s.fuelLiters, decimals: 3)
        j.add("moving_s", s.movingMs / 1000)
        j.add("stopped_utc", utc(s.stoppedUTCMs))
        j.add("driver_left_utc", utc(s.driverLeftUTCMs))
        return j.string
    }
}

/// ISO 8601 of UTC milliseconds, nil stays nil.
func utc(_ milliseconds: Int64?) -> String? {
    milliseconds.map { UTCTimestamp(millisecondsSinceEpoch: $0).iso8601 }
}
