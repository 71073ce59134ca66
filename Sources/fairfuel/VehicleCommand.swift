import ArgumentParser
import FairFuelDomain
import FairFuelStore

struct VehicleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vehicle", abstract: "Show or set the vehicle profile.", subcommands: [Set.self, Show.self],
        defaultSubcommand: Show.self)

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the vehicle profile.")
        @OptionGroup var store: StoreOptions
        func run() throws {
            let v = try store.openReadOnly().vehicle()
            print("name \(v.name)\nrated \(v.ratedLitersPer100km) L/100 km\nmass \(v.massKilograms) kg\nidle \(v.idleLitersPerHour) L/h")
            print("fuel \(v.fuelType)\ntank \(v.tankLiters) L\ncurrency \(v.currency)\nunits \(v.units)\nuntracked \(v.untrackedPolicy.rawValue)\nfuel scale \(v.fuelScale)")
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change the vehicle profile; unnamed fields stay as they are.")
        @Option(help: "A name for the car.") var name: String?
        @Option(name: .customLong("l-per-100km"), help: "Rated combined consumption, L/100 km.") var litersPer100km: Double?
        @Option(name: .customLong("mass-kg"), help: "Mass with a driver, kg.") var massKilograms: Double?
        @Option(name: .customLong("idle-l-per-h"), help: "Fuel burnt idling, L/h.") var idleLitersPerHour: Double?
        @Option(help: "petrol, diesel or lpg.") var fuel: String?
        @Option(name: .customLong("tank-l"), help: "Tank capacity, L.") var tankLiters: Double?
        @Option(help: "ISO 4217 currency code, e.g. EUR.") var currency: String?
        @Option(help: "metric or imperial.") var units: String?
        @Option(help: "Who pays for untracked driving: owner or pro_rata.") var untracked: String?
        @OptionGroup var store: StoreOptions

        func validate() throws {
            if let x = litersPer100km, !(1...40).contains(x) { throw ValidationError("--l-per-100km must be 1 to 40") }
            if let x = massKilograms, !(400...5000).contains(x) { throw ValidationError("--mass-kg must be 400 to 5000") }
            if let x = idleLitersPerHour, !(0...5).contains(x) { throw ValidationError("--idle-l-per-h must be 0 to 5") }
            if let x = tankLiters, !(5...200).contains(x) { throw ValidationError("--tank-l must be 5 to 200") }
            if let x = fuel, !["petrol", "diesel", "lpg"].contains(x) { throw ValidationError("--fuel must be petrol, diesel or lpg") }
            if let x = units, !["metric", "imperial"].contains(x) { throw ValidationError("--units must be metric or imperial") }
            if let x = untracked, UntrackedPolicy(rawValue: x) == nil { throw ValidationError("--untracked must be owner or pro_rata") }
            if let x = currency, x.count != 3 || !x.allSatisfy({ $0.isLetter }) { throw ValidationError("--currency must be a 3-letter ISO 4217 code") }
            if let x = name, x.isEmpty { throw ValidationError("--name cannot be empty") }
        }

        func run() throws {
            let db = try store.open()
            var v = try db.vehicle()
            if let name { v.name = name }
            if let litersPer100km { v.ratedLitersPer100km = litersPer100km }
            if let massKilograms { v.massKilograms = massKilograms }
            if let idleLitersPerHour { v.idleLitersPerHour = idleLitersPerHour }
            if let fuel { v.fuelType = fuel }
            if let tankLiters { v.tankLiters = tankLiters }
            if let currency {
                v.currency = currency.uppercased()
                v.currencyMinorDigits = ["JPY", "KRW", "ISK", "CLP", "VND"].contains(v.currency) ? 0 : 2
            }
            if let units { v.units = units }
            if let untracked { v.untrackedPolicy = UntrackedPolicy(rawValue: untracked)! }
            try db.setVehicle(v)
            print("vehicle \(v.name): \(v.ratedLitersPer100km) L/100 km, \(v.massKilograms) kg, idle \(v.idleLitersPerHour) L/h, \(v.fuelType)")
        }
    }
}
