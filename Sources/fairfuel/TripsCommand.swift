import ArgumentParser
import FairFuelConfiguration
import FairFuelCore
import FairFuelParsers
import FairFuelReports
import FairFuelService
import FairFuelStore

struct TripsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trips", abstract: "List the trips, give them to the right driver, or delete them.",
        subcommands: [List.self, Assign.self, Confirm.self, Delete.self], defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the trips (sessions and untracked driving, `u` ids), oldest first (the default).")

        @Option(help: "Only this driver's trips (name, any case).")
        var driver: String?
        @Option(help: "Trips starting at or after DATE (YYYY-MM-DD, or a full ISO 8601 date-time).")
        var since: String?
        @Option(help: "Trips starting before the end of DATE (YYYY-MM-DD: that whole day; a date-time: before it).")
        var until: String?
        @Flag(help: "Only untracked driving (nobody tapped in).")
        var untracked = false
        @Flag(help: "Print a JSON array (SI units).")
        var json = false
        @Flag(help: "Print CSV (RFC 4180) in the vehicle's units.")
        var csv = false
        @OptionGroup var store: StoreOptions

        func validate() throws {
            if json && csv { throw ValidationError("--json and --csv are exclusive") }
            if untracked && driver != nil { throw ValidationError("--untracked and --driver are exclusive") }
        }

        func run() throws {
            let db = try store.openReadOnly()
            let vehicle = try db.vehicle()
            let units = DisplayUnits(vehicle: vehicle)
            // A date the family types is a day on their calendar.
            let since = try bound(self.since, option: "--since", endOfDay: false, zone: units.timeZone)
            let until = try bound(self.until, option: "--until", endOfDay: true, zone: units.timeZone)
            if let since, let until, until <= since { throw ValidationError("--until must come after --since") }
            let names = Dictionary(try db.drivers(includingRemoved: true).map { ($0.id, $0.name) }) { first, _ in first }
            var trips = TripRow.merged(
                sessions: try db.sessions(sinceUTCMs: since, untilUTCMs: until),
                untracked: try db.untrackedDriving(sinceUTCMs: since, untilUTCMs: until)) { names[$0] }
            if untracked { trips = trips.filter(\.untracked) }
            if let driver {
                let known = Set(try db.drivers().map { $0.name.lowercased() } + trips.map { $0.driverName.lowercased() })
                guard known.contains(driver.lowercased()) else {
                    let current = try db.drivers().map(\.name)
                    throw UserFacingError(
                        "no driver named '\(driver)'" + (current.isEmpty ? " (none provisioned)" : " (drivers: \(current.joined(separator: ", ")))"))
                }
                trips = trips.filter { !$0.untracked && $0.driverName.lowercased() == driver.lowercased() }
            }
            if json {
                print(TripText.jsonArray(trips))
            } else if csv {
                print(TripText.csv(trips, units: units), terminator: "")
            } else {
                print(TripsCommand.table(trips, units: units), terminator: "")
                if trips.isEmpty {
                    let filtered = since != nil || until != nil || untracked || driver != nil
                    print(filtered ? "no trips match" : "no trips yet: a driver's tap on the dongle starts one")
                }
            }
        }

        func bound(_ text: String?, option: String, endOfDay: Bool, zone: TimeZoneRules) throws -> Int64? {
            guard let text else { return nil }
            let bound: Int64
            do { bound = try ISO8601.rangeBound(text, endOfDay: endOfDay, localIn: zone) } catch { throw ValidationError("\(option): \(error)") }
            do { return try ArgumentValidation.inYears(bound, text: text, argument: option) } catch { throw ValidationError("\(error)") }
        }
    }

    struct Assign: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give trips to their driver: untracked driving (u ids) or a trip recorded under the wrong driver.",
            discussion: """
                TRIPS is one trip (42, u7), a list (42,u7), or a range in the listing's order (40-45, u3-44). \
                Every bill the change moves is re-split, in one transaction, and printed before and after.
                """)

        @Argument(help: "The trip(s): 42, u7, 40-45 or 42,u7.") var trips: String
        @Argument(help: "The driver (name, any case).") var driver: String
        @Flag(help: "Go ahead even when a settled bill would move (it is kept as it was).") var force = false
        @Flag(help: "Print JSON.") var json = false
        @OptionGroup var store: StoreOptions

        func run() throws {
            let db = try store.open()
            let units = try TripsCommand.units(db)
            let references = try TripsCommand.references(trips, in: db.tripReferences())
            // The store's rule, which commands from the hub go through too.
            let record: DriverRecord
            do { record = try db.currentDriver(named: driver) } catch { throw UserFacingError(error.description) }
            let result: (change: BookChange, trips: [TripCorrection])
            do { result = try db.assignTrips(references, to: record.id, force: force) } catch { throw UserFacingError("\(error)") }
            // The re-split may have recalibrated the fuel estimate: the running service takes it now.
            store.control.tellService(json: json)
            if json {
                var j = JSONLine()
                j.addRaw("trips", json: TripCorrectionText.json(result.trips))
                j.addRaw("bills", json: BookChangeText.json(result.change))
                print(j.string)
                return
            }
            for trip in result.trips {
                switch trip.trip {
                case .session:
                    print("trip \(trip.trip): \(TerminalText.escaped(trip.previousDriverName ?? "?")) -> \(TerminalText.escaped(trip.driverName ?? "?"))")
                case .untracked:
                    print("trip \(trip.trip) (untracked) -> \(TerminalText.escaped(trip.driverName ?? "?")), now trip \(trip.session.map(String.init) ?? "?")")
                }
            }
            print(BookChangeText.text(result.change, units: units), terminator: "")
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a trip: its track and session go; its fuel stays in the books as untracked driving.")

        @Argument(help: "The trip's id (see `fairfuel trips`).") var trip: String
        @Flag(help: "Go ahead even when a settled bill would move (it is kept as it was).") var force = false
        @Flag(help: "Print JSON.") var json = false
        @OptionGroup var store: StoreOptions

        func run() throws {
            guard let reference = TripReference(trip) else { throw ValidationError("'\(trip)' is not a trip id (42, or u7)") }
            let db = try store.open()
            let units = try TripsCommand.units(db)
            let result: (change: BookChange, trip: TripCorrection)
            do { result = try db.deleteTrip(reference, force: force) } catch { throw UserFacingError("\(error)") }
            store.control.tellService(json: json)
            let untracked = result.trip.untracked.map { "u\($0)" }
            if json {
                var j = JSONLine()
                j.add("deleted", reference.description)
                j.add("driver", result.trip.previousDriverName)
                j.addRaw("untracked", json: JSONLine.array(untracked.map { "\"\($0)\"" }))
                j.addRaw("bills", json: BookChangeText.json(result.change))
                print(j.string)
                return
            }
            print("trip \(reference) (\(TerminalText.escaped(result.trip.previousDriverName ?? "?"))) deleted with its track; its fuel stays in the books as "
                + "untracked driving \(untracked.joined(separator: ", ")), so the bills still add up")
            print(BookChangeText.text(result.change, units: units), terminator: "")
        }
    }

    static func units(_ db: TripStore) throws -> DisplayUnits {
        let vehicle = try db.vehicle()
        return DisplayUnits(vehicle: vehicle)
    }

    /// `42`, `u7`, `40-45`, `42,u7`: every trip named, a range taken in the listing's order; each must exist.
    static func references(_ text: String, in listing: [TripReference]) throws -> [TripReference] {
        var result: [TripReference] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let ends = item.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            let parsed = ends.map(TripReference.init)
            guard (1...2).contains(ends.count), let first = parsed.first ?? nil, let last = parsed.last ?? nil else {
                throw ValidationError("'\(item)' is not a trip or a range of trips (42, u7, 40-45)")
            }
            for end in [first, last] where !listing.contains(end) { throw UserFacingError("no trip \(end)") }
            let from = listing.firstIndex(of: first)!, to = listing.firstIndex(of: last)!
            guard from <= to else { throw UserFacingError("the range \(item) runs backwards: \(last) comes before \(first)") }
            for reference in listing[from...to] where !result.contains(reference) { result.append(reference) }
        }
        return result
    }

    static func table(_ trips: [TripRow], units: DisplayUnits) -> String {
        var text = pad("id", 6) + pad("driver", 12) + pad("start (\(units.timeLabel))", 18) + pad("end", 12) + pad(units.distanceUnit, 9)
            + pad("min", 7) + pad("idle", 7) + pad("harsh", 7) + pad("avg " + units.speedUnit, 10) + pad("max " + units.speedUnit, 10)
            + "fuel " + units.volumeUnit + "\n"
        for t in trips {
            let speed = { (mps: Double?) in mps.map { DisplayUnits.fixed(units.speed(metersPerSecond: $0), 0) } ?? "-" }
            text += pad(t.reference, 6) + pad(t.untracked ? "(untracked)" : t.driverName, 12)
                + pad(t.startUTCMs.map(units.minuteText(utcMs:)) ?? "?", 18)
                + pad(t.untracked ? "-" : t.endReason ?? "open", 12) + pad(DisplayUnits.fixed(units.distance(meters: t.distanceMeters), 2), 9)
                + pad(String(t.durationMs / 60_000), 7) + pad(t.hasMotionFigures ? String(t.idleMs / 60_000) : "-", 7)
                + pad(t.hasMotionFigures ? "\(t.harshAccelerations)/\(t.harshBrakings)" : "-", 7)
                + pad(speed(t.averageSpeedMetersPerSecond), 10) + pad(t.hasMotionFigures ? speed(t.maximumSpeedMetersPerSecond) : "-", 10)
                + DisplayUnits.fixed(units.volume(liters: t.fuelLiters), 2) + TripsCommand.continuityNote(t) + "\n"
        }
        return text
    }
}

extension TripsCommand {
    /// What the continuity rules did, after the row: a session taken up again without a tap,
    /// one continuing another after a park, untracked driving's candidates.
    static func continuityNote(_ trip: TripRow) -> String {
        if trip.untracked {
            return trip.candidates.isEmpty ? "" : "  candidates: " + trip.candidates.map(TerminalText.escaped).joined(separator: ", ")
        }
        var notes: [String] = []
        if let previous = trip.continuedFrom { notes.append("continues \(previous), no tap") } else if trip.resumedCount > 0 {
            notes.append(trip.resumedCount == 1 ? "resumed without a tap" : "resumed \(trip.resumedCount) times without a tap")
        }
        return notes.isEmpty ? "" : "  " + notes.joined(separator: "; ")
    }

    struct Confirm: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give untracked driving to the candidate the continuity rules recorded (see `fairfuel trips`).",
            discussion: """
                With one candidate, DRIVER may be left out. With several, name the one who drove; a driver \
                who is not a candidate is refused (use `fairfuel trips assign` for anyone else). As with \
                assign, every bill that moves is re-split in one transaction and printed before and after.
                """)

        @Argument(help: "The untracked trip (u7), or several (u7,u9 or u7-u9).") var trips: String
        @Argument(help: "The driver among its candidates (name, any case); optional with one candidate.") var driver: String?
        @Flag(help: "Go ahead even when a settled bill would move (it is kept as it was).") var force = false
        @Flag(help: "Print JSON.") var json = false
        @OptionGroup var store: StoreOptions

        func run() throws {
            let db = try store.openReadOnly()
            let references = try TripsCommand.references(trips, in: db.tripReferences())
            let untracked = Dictionary(try db.untrackedDriving().map { ($0.id, $0) }) { first, _ in first }
            let names = Dictionary(try db.drivers().map { ($0.id, $0.name) }) { first, _ in first }
            var chosen: String?
            for reference in references {
                guard case let .untracked(id) = reference, let driving = untracked[id] else {
                    throw UserFacingError("\(reference) is not untracked driving; `fairfuel trips assign` moves a recorded trip")
                }
                let candidates = driving.candidates.compactMap { names[$0] }
                guard !candidates.isEmpty else {
                    throw UserFacingError("\(reference) has no candidates; give it to its driver with `fairfuel trips assign \(reference) DRIVER`")
                }
                let pick: String
                if let driver {
                    guard let match = candidates.first(where: { $0.lowercased() == driver.lowercased() }) else {
                        throw UserFacingError("\(driver) is not a candidate for \(reference) (candidates: \(candidates.joined(separator: ", ")))")
                    }
                    pick = match
                } else {
                    guard candidates.count == 1 else {
                        throw UserFacingError("\(reference) has \(candidates.count) candidates (\(candidates.joined(separator: ", "))): name the one who drove")
                    }
                    pick = candidates[0]
                }
                if let chosen, chosen != pick {
                    throw UserFacingError("the trips have different candidates (\(chosen), \(pick)): confirm them one at a time")
                }
                chosen = pick
            }
            guard let chosen else { throw UserFacingError("no trip given") }
            var assign = try Assign.parse([trips, chosen] + (force ? ["--force"] : []) + (json ? ["--json"] : []))
            assign.store = store
            try assign.run()
        }
    }
}

/// ISO 8601 of UTC milliseconds, nil stays nil.
func utc(_ milliseconds: Int64?) -> String? { TripText.utc(milliseconds) }
