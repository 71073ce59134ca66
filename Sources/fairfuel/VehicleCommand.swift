import ArgumentParser
import FairFuelCore
import FairFuelDomain
import FairFuelEdges
import FairFuelReports
import FairFuelService
import FairFuelStore

struct VehicleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vehicle", abstract: "Show or set the vehicle profile.", subcommands: [Set.self, Show.self],
        defaultSubcommand: Show.self)

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the vehicle profile.")
        @OptionGroup var store: StoreOptions
        func run() throws {
            let db = try store.openReadOnly()
            let v = try db.vehicle()
            print("name \(TerminalText.escaped(v.name))\nrated \(v.ratedLitersPer100km) L/100 km\nmass \(v.massKilograms) kg\nidle \(v.idleLitersPerHour) L/h")
            print("fuel \(v.fuelType)\ntank \(v.tankLiters) L\ncurrency \(v.currency)\nunits \(v.units)\nuntracked \(v.untrackedPolicy.rawValue)\nfuel scale \(DisplayUnits.fixed(v.fuelScale, 3))")
            print("time zone \(v.timeZone)")
            print(LearnedConsumptionText.text(try db.learnedConsumption(), units: DisplayUnits(vehicle: v)))
            if v.isDefaultCar { print(VehicleCommand.defaultCarHint) }
        }
    }

    /// Said while the mass and idle rate are the defaults.
    static let defaultCarHint =
        "hint: mass and idle rate are the defaults for any car; the split gets fairer with the car's own, "
        + "from its registration document: fairfuel vehicle set --mass-kg KG --engine-l LITRES"

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change the vehicle profile; unnamed fields stay as they are.")
        @Option(help: "A name for the car.", transform: CheckedArgument.name) var name: String?
        @Option(name: .customLong("l-per-100km"), help: "Rated combined consumption, L/100 km.") var litersPer100km: Double?
        @Option(name: .customLong("mass-kg"), help: "Mass with a driver, kg.") var massKilograms: Double?
        @Option(name: .customLong("idle-l-per-h"), help: "Fuel burnt idling, L/h.") var idleLitersPerHour: Double?
        @Option(
            name: .customLong("engine-l"),
            help: "Engine displacement, litres (the registration document's cm³ / 1000): sets the idle rate from it, 0.5 L/h per litre of petrol, instead of --idle-l-per-h."
        ) var engineLiters: Double?
        @Option(help: "petrol, diesel or lpg.") var fuel: String?
        @Option(name: .customLong("tank-l"), help: "Tank capacity, L.") var tankLiters: Double?
        @Option(help: "ISO 4217 currency code, e.g. EUR.") var currency: String?
        @Option(help: "metric (km, litres, L/100 km), imperial (miles, US gallons, US mpg) or uk (miles, imperial gallons, UK mpg).") var units: String?
        @Option(
            name: .customLong("time-zone"),
            help: "The family's time zone, as in /usr/share/zoneinfo (e.g. Europe/Berlin, America/New_York; UTC by default): trips, bills and reports show its local time, and dates typed are its days."
        ) var timeZone: String?
        @Option(help: "Who pays for untracked driving: owner or pro_rata (bills from --from on, and bills to come).") var untracked: String?
        @Option(help: "With --untracked: the bills from DATE on (YYYY-MM-DD or ISO 8601); default every bill not yet settled.") var from: String?
        @OptionGroup var store: StoreOptions

        func validate() throws {
            if let x = litersPer100km, !VehicleProfile.ratedLitersPer100kmRange.contains(x) { throw ValidationError("--l-per-100km must be 1 to 40") }
            if let x = massKilograms, !VehicleProfile.massKilogramsRange.contains(x) { throw ValidationError("--mass-kg must be 400 to 5000") }
            if let x = idleLitersPerHour, !VehicleProfile.idleLitersPerHourRange.contains(x) { throw ValidationError("--idle-l-per-h must be 0 to 5") }
            if let x = engineLiters, !VehicleProfile.engineLitersRange.contains(x) { throw ValidationError("--engine-l must be 0.5 to 8") }
            if engineLiters != nil && idleLitersPerHour != nil {
                throw ValidationError("--engine-l sets the idle rate: give --engine-l or --idle-l-per-h, not both")
            }
            if let x = tankLiters, !VehicleProfile.tankLitersRange.contains(x) { throw ValidationError("--tank-l must be 5 to 200") }
            if let x = fuel, !VehicleProfile.fuelTypes.contains(x) { throw ValidationError("--fuel must be petrol, diesel or lpg") }
            if let x = units, !VehicleProfile.unitSystems.contains(x) { throw ValidationError(VehicleProfile.unitSystemsProblem) }
            if let x = untracked, UntrackedPolicy(rawValue: x) == nil { throw ValidationError("--untracked must be owner or pro_rata") }
            if let x = currency, VehicleProfile.minorDigits(ofCurrency: x) == nil { throw ValidationError(VehicleProfile.currencyProblem(x)) }
            if let x = name, x.allSatisfy(\.isWhitespace) { throw ValidationError("--name cannot be empty") }
            if from != nil && untracked == nil { throw ValidationError("--from goes with --untracked") }
        }

        func run() throws {
            let db = try store.open(creating: true)
            var v = try db.vehicle()
            if let name { v.name = name }
            if let litersPer100km { v.ratedLitersPer100km = litersPer100km }
            if let massKilograms { v.massKilograms = massKilograms }
            if let idleLitersPerHour { v.idleLitersPerHour = idleLitersPerHour }
            if let fuel { v.fuelType = fuel }
            if let engineLiters { v.idleLitersPerHour = v.idleLitersPerHour(engineLiters: engineLiters) }
            if let tankLiters { v.tankLiters = tankLiters }
            if let currency {
                let digits = VehicleProfile.minorDigits(ofCurrency: currency) ?? 2
                // Refuel costs are stored in minor units: other decimals would misread them.
                let refuels = try db.refuels().count
                if digits != v.currencyMinorDigits && refuels > 0 {
                    throw UserFacingError("the store holds \(refuels) refuel(s) in \(v.currency) (\(v.currencyMinorDigits) decimals); \(currency.uppercased()) has \(digits): remove them first or keep a currency with \(v.currencyMinorDigits) decimals")
                }
                v.currency = currency.uppercased()
                v.currencyMinorDigits = digits
            }
            if let units { v.units = units }
            var zone: TimeZoneRules?
            if let timeZone {
                do { zone = try TimeZoneDatabase.load(timeZone) } catch { throw ValidationError("--time-zone: \(error)") }
                v.timeZone = zone!.name
            }
            if let untracked {
                // The policy belongs to the bills: those it now applies to are re-split in the same transaction.
                let policy = UntrackedPolicy(rawValue: untracked)!
                var fromUTCMs: Int64?
                if let from {
                    let local = zone ?? DisplayUnits(vehicle: v).timeZone
                    do { fromUTCMs = try ISO8601.rangeBound(from, endOfDay: false, localIn: local) } catch { throw ValidationError("--from: \(error)") }
                }
                let result: (change: BookChange, applied: [Int64], settledLeftOut: [Int64])
                do { result = try db.setUntrackedPolicy(policy, fromUTCMs: fromUTCMs, vehicle: v) } catch { throw UserFacingError("\(error)") }
                v.untrackedPolicy = policy
                print("vehicle \(TerminalText.escaped(v.name)): \(v.ratedLitersPer100km) L/100 km, \(v.massKilograms) kg, idle \(v.idleLitersPerHour) L/h, \(v.fuelType)")
                print("untracked driving: \(policy.rawValue) for \(result.applied.count) bill(s) and those to come")
                if !result.settledLeftOut.isEmpty {
                    print("settled bills left as they are: \(result.settledLeftOut.map(String.init).joined(separator: ", "))")
                }
                let units = DisplayUnits(vehicle: v)
                print(BookChangeText.text(result.change, units: units), terminator: "")
            } else {
                try db.setVehicle(v)
                print("vehicle \(TerminalText.escaped(v.name)): \(v.ratedLitersPer100km) L/100 km, \(v.massKilograms) kg, idle \(v.idleLitersPerHour) L/h, \(v.fuelType)")
                if v.isDefaultCar { print(VehicleCommand.defaultCarHint) }
            }
            if let zone { print("times shown in \(DisplayUnits.zoneText(zone, atUTCMs: WallClock.utcMilliseconds()))") }
            store.control.tellService()
        }
    }
}
