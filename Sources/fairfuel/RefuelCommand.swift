import ArgumentParser
import FairFuelCore
import FairFuelEdges
import FairFuelReports
import FairFuelService
import FairFuelStore

struct RefuelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refuel", abstract: "Record, list or remove refuels (the fuel log); the bills are split between the drivers.",
        discussion: """
            Each bill pays for the fuel burnt since the refuel before it. A settled bill never changes, so a \
            refuel entered or moved (`edit --at`) inside a settled bill's period is refused, even with --force: \
            its bill would take fuel the settled one already counts. Unsettle that bill first (`refuel unsettle ID`). \
            --force lets a correction move a settled bill's split (trips assign or delete, the removal of the refuel \
            before it, which widens its period): the settled bill keeps its split, and no fuel is billed twice.
            """,
        subcommands: [Add.self, List.self, Edit.self, Remove.self, Settle.self, Unsettle.self], defaultSubcommand: Add.self)

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record a refuel (the default): now and a full tank unless told otherwise.")

        @Option(help: "When (ISO 8601; without a zone, the vehicle's time zone), e.g. 2026-11-20T18:05 or 2026-11-20T18:05+01:00; default now.", transform: CheckedArgument.date)
        var at: String?
        @Option(parsing: .unconditional, help: "Litres put in the tank (0.1 to 500).", transform: CheckedArgument.liters)
        var liters: Double?
        @Option(
            parsing: .unconditional, help: "Gallons put in the tank (instead of --liters): imperial gallons for a `uk` vehicle, US gallons otherwise.",
            transform: CheckedArgument.gallons)
        var gallons: Double?
        @Option(parsing: .unconditional, help: "What it cost, e.g. 64.90, in the vehicle's currency (0 to 100000).", transform: CheckedArgument.cost)
        var cost: String?
        @Flag(help: "No refuel: mark that the tank was full at --at (filled up at install); the next bill is then an ordinary one, nothing before tracking.")
        var baseline = false
        @Flag(help: "The tank was not filled to the top.")
        var partial = false
        @Option(name: .customLong("odometer-km"), parsing: .unconditional, help: "The odometer reading, km.", transform: CheckedArgument.odometerKilometers)
        var odometerKilometers: Double?
        @Option(name: .customLong("odometer-mi"), parsing: .unconditional, help: "The odometer reading, miles.", transform: CheckedArgument.odometerMiles)
        var odometerMiles: Double?
        @Option(help: "petrol, diesel or lpg (must be the vehicle's).")
        var fuel: String?
        @Option(help: "Where, e.g. 'Total, Rue de Rivoli'.", transform: CheckedArgument.text)
        var station: String?
        @Option(help: "A free note.", transform: CheckedArgument.text)
        var note: String?
        @Flag(help: "Go ahead even when the price per litre is far from the car's usual one (before it has one: outside what fuel costs anywhere in its currency), --at is more than ten minutes in the future, or a settled bill's split would move (it is kept as it was); a refuel inside a settled bill's period is refused all the same.")
        var force = false
        @OptionGroup var store: StoreOptions

        func validate() throws {
            if baseline { return try validateBaseline() }
            if cost == nil { throw ValidationError("say what it cost: --cost") }
            switch (liters, gallons) {
            case (nil, nil): throw ValidationError("say how much: --liters or --gallons")
            case (.some, .some): throw ValidationError("--liters and --gallons are exclusive")
            case let (.some(x), nil):
                guard x.isFinite, x > 0 else { throw ValidationError("--liters must be more than 0") }
            case let (nil, .some(x)):
                guard x.isFinite, x > 0 else { throw ValidationError("--gallons must be more than 0") }
            }
            if odometerKilometers != nil && odometerMiles != nil {
                throw ValidationError("--odometer-km and --odometer-mi are exclusive")
            }
            if let x = odometerKilometers ?? odometerMiles, !(x.isFinite && x >= 0) {
                throw ValidationError("the odometer reading cannot be negative")
            }
        }

        func run() throws {
            let db = try store.open()
            if baseline { return try addBaseline(db) }
            let vehicle: VehicleProfile
            do { vehicle = try db.vehicle() } catch { throw UserFacingError(StoreFailure.message(error, path: db.path, doing: "read the vehicle")) }
            let units = DisplayUnits(vehicle: vehicle)
            let timestamp: Int64
            if let at {
                timestamp = try RefuelEntryChecks.instant(at, units: units)
            } else {
                timestamp = WallClock.utcMilliseconds()
            }
            let amount: MinorUnits
            do {
                amount = try MoneyText.parse(cost ?? "", minorDigits: vehicle.currencyMinorDigits)
            } catch {
                throw ValidationError("--cost: \(error)")
            }
            let volume = liters ?? units.liters(gallons: gallons!)
            // Without --at it is dated by the wall clock: the clock its date is checked against.
            let now = at == nil ? timestamp : try RefuelEntryChecks.nowUTCMs()
            let odometer = odometerKilometers ?? odometerMiles.map { $0 * DisplayUnits.metersPerMile / 1000 }
            let input = RefuelInput(
                atUTCMs: timestamp, liters: volume, cost: amount, fullTank: !partial, odometerKilometers: odometer,
                fuelType: fuel, station: station, note: note, currency: vehicle.currency, enteredUTCMs: WallClock.utcMilliseconds())
            do {
                let (id, change) = try db.addRefuelShowingChange(input, force: force, entryClockUTCMs: now)
                print("refuel \(id): \(units.volumeText(liters: volume)) for \(units.moneyWithCurrency(amount)), "
                    + "\(partial ? "partial" : "full tank"), at \(TripText.utc(timestamp)!)")
                // A refuel entered late, between two others, moves the bill after it (or, first, the baseline).
                let others = BookChange(bills: change.bills.filter { $0.refuelID != id })
                if !others.bills.isEmpty { print("other bills re-split:\n" + BookChangeText.text(others, units: units), terminator: "") }
            } catch {
                let message = StoreFailure.message(error, path: db.path, doing: "record the refuel", units: units)
                // Typed again to correct it: say which refuel it repeats and how to correct that one.
                guard let existing = try? db.refuelRecorded(near: timestamp) else { throw UserFacingError(message) }
                throw UserFacingError(
                    message + " (refuel \(existing), within a minute of this one). To correct it: `fairfuel refuel edit \(existing)` "
                        + "with --liters, --cost, --at, --partial or --odometer-km; another refuel needs its own --at")
            }
            // A full fill may have recalibrated the fuel estimate: the running service takes it now.
            store.control.tellService()
        }
    }

    /// The fuel log, with a clear message when the store cannot be read.
    static func readLog(_ db: TripStore) throws -> [(id: Int64, refuel: RefuelInput)] {
        do { return try db.refuels() } catch { throw UserFacingError(StoreFailure.message(error, path: db.path, doing: "read the fuel log")) }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the fuel log, oldest first.")
        @Flag(help: "Print a JSON array.") var json = false
        @OptionGroup var store: StoreOptions

        func run() throws {
            let db = try store.openReadOnly()
            let vehicle = try db.vehicle()
            let units = DisplayUnits(vehicle: vehicle)
            let refuels = try db.refuels()
            if json {
                print(RefuelText.jsonArray(refuels, vehicleCurrency: vehicle.currency))
                return
            }
            guard !refuels.isEmpty else {
                print("no refuels recorded")
                return
            }
            print(pad("id", 6) + pad("when (\(units.timeLabel))", 18) + pad(units.volumeUnit, 10) + pad(vehicle.currency, 10) + pad("fill", 9)
                + pad("odometer", 12) + pad("settled", 12) + "station / note")
            for (id, refuel) in refuels {
                if refuel.baseline {
                    print(pad(String(id), 6) + pad(units.minuteText(utcMs: refuel.atUTCMs), 18) + "baseline mark: the tank was full, no bill")
                    continue
                }
                let odometer = refuel.odometerKilometers.map { units.distanceText(meters: $0 * 1000, decimals: 0) } ?? "-"
                let words = [refuel.station, refuel.note].compactMap { $0 }.joined(separator: " / ")
                let line = pad(String(id), 6) + pad(units.minuteText(utcMs: refuel.atUTCMs), 18)
                    + pad(DisplayUnits.fixed(units.volume(liters: refuel.liters), 2), 10) + pad(RefuelCommand.costText(refuel, vehicle: vehicle, units: units), 10)
                    + pad(refuel.fullTank ? "full" : "partial", 9) + pad(odometer, 12)
                    + pad(refuel.settledUTCMs.map { units.dateText(utcMs: $0) } ?? "-", 12) + words
                print(String(line.reversed().drop { $0 == " " }.reversed()))
            }
        }
    }

    /// The bill in the column of the vehicle's currency; a bill paid in another one (before a
    /// `vehicle set --currency`) says which, in its own minor digits, rather than pass for it.
    static func costText(_ refuel: RefuelInput, vehicle: VehicleProfile, units: DisplayUnits) -> String {
        guard let currency = refuel.currency, currency != vehicle.currency else { return units.moneyText(refuel.cost) }
        return MoneyText.format(refuel.cost, minorDigits: VehicleProfile.minorDigits(ofCurrency: currency) ?? 2) + " " + currency
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a refuel by id; every split is recomputed.")
        @Argument(help: "The refuel's id (see `fairfuel refuel list`).") var id: Int64
        @Flag(help: "Go ahead even when another settled bill's split would move (it is kept as it was; removing the refuel before it widens its period).") var force = false
        @Flag(help: "Print the bills that moved as JSON.") var json = false
        @OptionGroup var store: StoreOptions

        func run() throws {
            let db = try store.open()
            let change: BookChange
            do { change = try db.removeRefuel(id: id, force: force) } catch {
                throw UserFacingError(StoreFailure.message(error, path: db.path, doing: "remove refuel \(id)"))
            }
            // The calibration may have changed: the running service takes it now.
            store.control.tellService(json: json)
            if json {
                print(BookChangeText.json(change))
                return
            }
            print("refuel \(id) removed; splits recomputed")
            print(BookChangeText.text(change, units: try TripsCommand.units(db)), terminator: "")
        }
    }

    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Correct a refuel (litres, cost, time, full or partial, odometer); bills are re-split and the calibration relearnt.")
        @Argument(help: "The refuel's id (see `fairfuel refuel list`).") var id: Int64
        @Option(help: "When (ISO 8601; without a zone, the vehicle's time zone).") var at: String?
        @Option(help: "Litres put in the tank.") var liters: Double?
        @Option(help: "Gallons put in the tank (instead of --liters): imperial gallons for a `uk` vehicle, US gallons otherwise.")
        var gallons: Double?
        @Option(help: "What it cost, e.g. 64.90, in the bill's currency.") var cost: String?
        @Flag(help: "The tank was filled to the top.") var full = false
        @Flag(help: "The tank was not filled to the top.") var partial = false
        @Option(name: .customLong("odometer-km"), help: "The odometer reading, km.") var odometerKilometers: Double?
        @Option(name: .customLong("odometer-mi"), help: "The odometer reading, miles.") var odometerMiles: Double?
        @Flag(name: .customLong("no-odometer"), help: "Forget the odometer reading.") var noOdometer = false
        @Flag(help: "Go ahead even when the price per litre is far from the car's usual one (before it has one: outside what fuel costs anywhere in its currency), --at is more than ten minutes in the future, or another settled bill's split would move (it is kept as it was); a move into a settled bill's period is refused all the same.")
        var force = false
        @Flag(help: "Print the bills that moved as JSON.") var json = false
        @OptionGroup var store: StoreOptions

        func validate() throws {
            if liters != nil && gallons != nil { throw ValidationError("--liters and --gallons are exclusive") }
            if let x = liters ?? gallons, !(x.isFinite && x > 0) { throw ValidationError("the volume must be more than 0") }
            if full && partial { throw ValidationError("--full and --partial are exclusive") }
            if [odometerKilometers != nil, odometerMiles != nil, noOdometer].filter({ $0 }).count > 1 {
                throw ValidationError("--odometer-km, --odometer-mi and --no-odometer are exclusive")
            }
        }

        func run() throws {
            let db = try store.open()
            let log = try RefuelCommand.readLog(db)
            let vehicle: VehicleProfile
            do { vehicle = try db.vehicle() } catch { throw UserFacingError(StoreFailure.message(error, path: db.path, doing: "read the vehicle")) }
            guard let bill = log.first(where: { $0.id == id })?.refuel else { throw UserFacingError("no refuel with id \(id)") }
            let currency = bill.currency ?? vehicle.currency
            let units = DisplayUnits(vehicle: vehicle)
            var edit = RefuelEdit()
            if let at {
                edit.atUTCMs = try RefuelEntryChecks.instant(at, units: units)
            }
            edit.liters = liters ?? gallons.map { units.liters(gallons: $0) }
            if let cost {
                do {
                    edit.cost = try MoneyText.parse(cost, minorDigits: VehicleProfile.minorDigits(ofCurrency: currency) ?? 2)
                } catch {
                    throw ValidationError("--cost: \(error)")
                }
            }
            if full || partial { edit.fullTank = full }
            if noOdometer { edit.odometerKilometers = .some(nil) }
            if let km = odometerKilometers ?? odometerMiles.map({ $0 * DisplayUnits.metersPerMile / 1000 }) { edit.odometerKilometers = km }
            let now = try RefuelEntryChecks.nowUTCMs()
            let change: BookChange
            do { change = try db.editRefuel(id: id, edit, force: force, entryClockUTCMs: now) } catch {
                throw UserFacingError(StoreFailure.message(error, path: db.path, doing: "correct refuel \(id)", units: units))
            }
            store.control.tellService(json: json)
            if json {
                print(BookChangeText.json(change))
                return
            }
            print("refuel \(id) corrected; bills re-split, calibration relearnt")
            print(BookChangeText.text(change, units: try TripsCommand.units(db)), terminator: "")
        }
    }

    struct Settle: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mark bills as settled (paid between the family): they never change again (until `refuel unsettle`).")
        @OptionGroup var bills: BillChoice
        @OptionGroup var store: StoreOptions

        func run() throws {
            let db = try store.open()
            let chosen = try bills.chosen(db)
            let settled: [Int64]
            do { settled = try db.settleRefuels(chosen, atUTCMs: WallClock.utcMilliseconds()) } catch {
                throw UserFacingError(StoreFailure.message(error, path: db.path, doing: "settle the bills"))
            }
            let already = chosen.filter { !settled.contains($0) }
            if !settled.isEmpty { print("settled: refuel(s) \(settled.map(String.init).joined(separator: ", ")); they never change again") }
            if !already.isEmpty { print("already settled: \(already.map(String.init).joined(separator: ", "))") }
            // Bills the service publishes (the uplink, Home Assistant) carry their settled mark.
            if !settled.isEmpty { store.control.tellService() }
        }
    }

    /// Which bills `settle` and `unsettle` work on: refuel ids, or every bill of a month.
    struct BillChoice: ParsableArguments {
        @Argument(help: "Refuel ids (see `fairfuel refuel list`).") var ids: [Int64] = []
        @Option(help: "Every bill of this calendar month (YYYY-MM, in the vehicle's time zone).") var month: String?

        func validate() throws {
            if ids.isEmpty == (month == nil) { throw ValidationError("say which bills: refuel ids, or --month YYYY-MM") }
        }

        /// The bills `ids` name, or every bill of `month` (the vehicle's calendar month).
        func chosen(_ db: TripStore) throws -> [Int64] {
            guard let period = try parseMonth(month) else { return ids }
            let zone = DisplayUnits(vehicle: try db.vehicle()).timeZone
            let chosen = try db.refuels().filter { period.contains(utcMs: $0.refuel.atUTCMs, in: zone) }.map(\.id)
            guard !chosen.isEmpty else { throw UserFacingError("no refuel in \(period)") }
            return chosen
        }
    }

    struct Unsettle: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Clear bills' settled mark and re-split them from the data (prints each share before and after).",
            discussion: """
                For a settled bill that must change: a refuel forgotten inside its period, a trip given to the wrong \
                driver. The bills are re-split in one transaction with the data as it is now; settle them again once \
                the family has squared up.
                """)
        @OptionGroup var bills: BillChoice
        @Flag(help: "Print the bills that moved as JSON.") var json = false
        @OptionGroup var store: StoreOptions

        func run() throws {
            let db = try store.open()
            let chosen = try bills.chosen(db)
            let result: (change: BookChange, unsettled: [Int64])
            do { result = try db.unsettleRefuels(chosen) } catch {
                throw UserFacingError(StoreFailure.message(error, path: db.path, doing: "unsettle the bills"))
            }
            if !result.unsettled.isEmpty { store.control.tellService(json: json) }
            if json {
                print(BookChangeText.json(result.change))
                return
            }
            let open = chosen.filter { !result.unsettled.contains($0) }
            if !result.unsettled.isEmpty {
                print("unsettled: refuel(s) \(result.unsettled.map(String.init).joined(separator: ", ")); re-split from the data")
                print(BookChangeText.text(result.change, units: try TripsCommand.units(db)), terminator: "")
            }
            if !open.isEmpty { print("not settled: \(open.map(String.init).joined(separator: ", "))") }
        }
    }
}
