import ArgumentParser
import FairFuelCore
import FairFuelService
import FairFuelStore

#if canImport(Glibc)
import Glibc
#endif

struct RefuelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refuel", abstract: "Record, list or remove refuels (the fuel log); the bills are split between the drivers.",
        subcommands: [Add.self, List.self, Remove.self], defaultSubcommand: Add.self)

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record a refuel (the default): now and a full tank unless told otherwise.")

        @Option(help: "When (ISO 8601; without a zone, UTC), e.g. 2026-11-20T18:05+01:00; default now.", transform: CheckedArgument.date)
        var at: String?
        @Option(parsing: .unconditional, help: "Litres put in the tank (0.1 to 500).", transform: CheckedArgument.liters)
        var liters: Double?
        @Option(parsing: .unconditional, help: "US gallons put in the tank (instead of --liters).", transform: CheckedArgument.gallons)
        var gallons: Double?
        @Option(parsing: .unconditional, help: "What it cost, e.g. 64.90, in the vehicle's currency (0 to 100000).", transform: CheckedArgument.cost)
        var cost: String
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
        @OptionGroup var store: StoreOptions

        func validate() throws {
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
            let timestamp: Int64
            if let at {
                do { timestamp = try ISO8601.parse(at).millisecondsSinceEpoch } catch { throw ValidationError("--at: \(error)") }
            } else {
                timestamp = wallClockUTCMs()
            }
            let db = try store.open()
            let vehicle = try db.vehicle()
            let units = DisplayUnits(units: vehicle.units, currency: vehicle.currency, currencyMinorDigits: vehicle.currencyMinorDigits)
            let amount: MinorUnits
            do {
                amount = try MoneyText.parse(cost, minorDigits: vehicle.currencyMinorDigits)
            } catch {
                throw ValidationError("--cost: \(error)")
            }
            let volume = liters ?? gallons! * DisplayUnits.litersPerUSGallon
            let odometer = odometerKilometers ?? odometerMiles.map { $0 * DisplayUnits.metersPerMile / 1000 }
            let input = RefuelInput(
                atUTCMs: timestamp, liters: volume, cost: amount, fullTank: !partial, odometerKilometers: odometer,
                fuelType: fuel, station: station, note: note, currency: vehicle.currency, enteredUTCMs: wallClockUTCMs())
            do {
                let id = try db.addRefuel(input)
                print("refuel \(id): \(units.volumeText(liters: volume)) for \(units.moneyWithCurrency(amount)), "
                    + "\(partial ? "partial" : "full tank"), at \(TripText.utc(timestamp)!)")
            } catch {
                throw UserFacingError("\(error)")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the fuel log, oldest first.")
        @Flag(help: "Print a JSON array.") var json = false
        @OptionGroup var store: StoreOptions

        func run() throws {
            let db = try store.openReadOnly()
            let vehicle = try db.vehicle()
            let units = DisplayUnits(units: vehicle.units, currency: vehicle.currency, currencyMinorDigits: vehicle.currencyMinorDigits)
            let refuels = try db.refuels()
            if json {
                print(JSONLine.array(refuels.map { id, refuel in
                    var j = JSONLine()
                    j.add("id", id)
                    j.add("at_utc", TripText.utc(refuel.atUTCMs))
                    j.add("liters", refuel.liters, decimals: 3)
                    j.add("cost_cents", refuel.cost.value)
                    j.add("currency", refuel.currency ?? vehicle.currency)
                    j.add("full", refuel.fullTank)
                    j.add("odometer_km", refuel.odometerKilometers, decimals: 1)
                    j.add("fuel", refuel.fuelType)
                    j.add("station", refuel.station)
                    j.add("note", refuel.note)
                    j.add("entered_utc", TripText.utc(refuel.enteredUTCMs))
                    return j.string
                }))
                return
            }
            guard !refuels.isEmpty else {
                print("no refuels recorded")
                return
            }
            print(pad("id", 6) + pad("when (UTC)", 18) + pad(units.volumeUnit, 10) + pad(vehicle.currency, 10) + pad("fill", 9)
                + pad("odometer", 12) + "station / note")
            for (id, refuel) in refuels {
                let odometer = refuel.odometerKilometers.map { units.distanceText(meters: $0 * 1000, decimals: 0) } ?? "-"
                let words = [refuel.station, refuel.note].compactMap { $0 }.joined(separator: " / ")
                let line = pad(String(id), 6) + pad(DisplayUnits.minuteText(utcMs: refuel.atUTCMs), 18)
                    + pad(DisplayUnits.fixed(units.volume(liters: refuel.liters), 2), 10) + pad(units.moneyText(refuel.cost), 10)
                    + pad(refuel.fullTank ? "full" : "partial", 9) + pad(odometer, 12) + words
                print(String(line.reversed().drop { $0 == " " }.reversed()))
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a refuel by id; every split is recomputed.")
        @Argument(help: "The refuel's id (see `fairfuel refuel list`).") var id: Int64
        @OptionGroup var store: StoreOptions

        func run() throws {
            let db = try store.open()
            do { try db.removeRefuel(id: id) } catch { throw UserFacingError("\(error)") }
            print("refuel \(id) removed; splits recomputed")
        }
    }
}

/// Now, from the system clock: only the CLI reads it, for "a refuel now" and when it was entered.
func wallClockUTCMs() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
}
