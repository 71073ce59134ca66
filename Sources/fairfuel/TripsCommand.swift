import ArgumentParser
import FairFuelCore
import FairFuelParsers
import FairFuelService
import FairFuelStore

struct TripsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "trips", abstract: "List the trips (sessions), oldest first.")

    @Option(help: "Only this driver's trips (name, any case).")
    var driver: String?
    @Option(help: "Trips starting at or after DATE (YYYY-MM-DD, or a full ISO 8601 date-time).")
    var since: String?
    @Option(help: "Trips starting before the end of DATE (YYYY-MM-DD: that whole day; a date-time: before it).")
    var until: String?
    @Flag(help: "Print a JSON array (SI units).")
    var json = false
    @Flag(help: "Print CSV (RFC 4180) in the vehicle's units.")
    var csv = false
    @OptionGroup var store: StoreOptions

    func validate() throws {
        if json && csv { throw ValidationError("--json and --csv are exclusive") }
    }

    func run() throws {
        let since = try bound(self.since, option: "--since", endOfDay: false)
        let until = try bound(self.until, option: "--until", endOfDay: true)
        if let since, let until, until <= since { throw ValidationError("--until must come after --since") }
        let db = try store.openReadOnly()
        let vehicle = try db.vehicle()
        let units = DisplayUnits(units: vehicle.units, currency: vehicle.currency, currencyMinorDigits: vehicle.currencyMinorDigits)
        var trips = try db.sessions(sinceUTCMs: since, untilUTCMs: until).map(TripRow.init)
        if let driver {
            let known = Set(try db.drivers().map { $0.name.lowercased() } + trips.map { $0.driverName.lowercased() })
            guard known.contains(driver.lowercased()) else { throw UserFacingError("no driver named '\(driver)'") }
            trips = trips.filter { $0.driverName.lowercased() == driver.lowercased() }
        }
        if json {
            print(TripText.jsonArray(trips))
        } else if csv {
            print(TripText.csv(trips, units: units), terminator: "")
        } else {
            print(Self.table(trips, units: units), terminator: "")
        }
    }

    func bound(_ text: String?, option: String, endOfDay: Bool) throws -> Int64? {
        guard let text else { return nil }
        let bound: Int64
        do { bound = try ISO8601.rangeBound(text, endOfDay: endOfDay) } catch { throw ValidationError("\(option): \(error)") }
        do { return try ArgumentValidation.inYears(bound, text: text, argument: option) } catch { throw ValidationError("\(error)") }
    }

    static func table(_ trips: [TripRow], units: DisplayUnits) -> String {
        var text = pad("id", 6) + pad("driver", 12) + pad("start (UTC)", 18) + pad("end", 12) + pad(units.distanceUnit, 9)
            + pad("min", 7) + pad("idle", 7) + pad("harsh", 7) + pad("max " + units.speedUnit, 10) + "fuel " + units.volumeUnit + "\n"
        for t in trips {
            text += pad(String(t.id), 6) + pad(t.driverName, 12) + pad(t.startUTCMs.map(DisplayUnits.minuteText(utcMs:)) ?? "?", 18)
                + pad(t.endReason ?? "open", 12) + pad(DisplayUnits.fixed(units.distance(meters: t.distanceMeters), 2), 9)
                + pad(String(t.durationMs / 60_000), 7) + pad(String(t.idleMs / 60_000), 7)
                + pad("\(t.harshAccelerations)/\(t.harshBrakings)", 7)
                + pad(DisplayUnits.fixed(units.speed(metersPerSecond: t.maximumSpeedMetersPerSecond), 0), 10)
                + DisplayUnits.fixed(units.volume(liters: t.fuelLiters), 2) + "\n"
        }
        return text
    }
}

/// ISO 8601 of UTC milliseconds, nil stays nil.
func utc(_ milliseconds: Int64?) -> String? { TripText.utc(milliseconds) }
