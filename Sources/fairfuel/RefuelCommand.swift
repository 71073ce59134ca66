import ArgumentParser
import FairFuelCore
import FairFuelService
import FairFuelStore

struct RefuelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refuel", abstract: "Record a refuel; the bill is split between the drivers.")

    @Option(help: "When (ISO 8601; without a zone, UTC), e.g. 2026-11-20T18:05+01:00.")
    var at: String
    @Option(help: "Litres put in the tank.")
    var liters: Double
    @Option(help: "What it cost, e.g. 64.90.")
    var cost: String
    @Flag(help: "The tank was not filled to the top.")
    var partial = false
    @OptionGroup var store: StoreOptions

    func run() throws {
        let timestamp: Int64
        do {
            timestamp = try ISO8601.parse(at).millisecondsSinceEpoch
        } catch {
            throw ValidationError("--at: \(error)")
        }
        guard liters.isFinite, liters > 0 else { throw ValidationError("--liters must be more than 0") }
        let db = try store.open()
        let vehicle = try db.vehicle()
        let amount: MinorUnits
        do {
            amount = try MoneyText.parse(cost, minorDigits: vehicle.currencyMinorDigits)
        } catch {
            throw ValidationError("--cost: \(error)")
        }
        do {
            let id = try db.addRefuel(RefuelInput(atUTCMs: timestamp, liters: liters, cost: amount, fullTank: !partial))
            print("refuel \(id): \(liters) L for \(MoneyText.format(amount, minorDigits: vehicle.currencyMinorDigits)) \(vehicle.currency)")
        } catch {
            throw UserFacingError("\(error)")
        }
    }
}
