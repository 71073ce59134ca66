import ArgumentParser
import FairFuelPull
import FairFuelReports
import FairFuelService
import FairFuelStore

struct SplitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "split", abstract: "Show how the bills are split between the drivers: per refuel, per driver or per month.",
        discussion: """
            With DIR... (pull or hub directories, as `fairfuel family` takes them): across cars, each car's bills \
            and the family's totals, one line per person (drivers joined by driver URI uuid, else by name).
            """)

    @Argument(help: "Pull directories, one per car, or hub directories; none: the store.")
    var directories: [String] = []
    @Option(help: "refuel (each bill), driver (totals), or month (totals per calendar month, in the vehicle's time zone).")
    var by: SplitText.Grouping = .refuel
    @Flag(help: "Print JSON (money in minor units: cost_cents).")
    var json = false
    @OptionGroup var store: StoreOptions

    func validate() throws {
        if !directories.isEmpty, store.path != nil { throw ValidationError("give pull directories or --db, not both") }
    }

    func run() throws {
        if !directories.isEmpty {
            let books = try loadFamilyBooks(directories, command: "split")
            print(books.splitText(by: by, json: json), terminator: "")
            return
        }
        let db = try store.openReadOnly()
        let vehicle = try db.vehicle()
        let units = DisplayUnits(vehicle: vehicle)
        let splits = try db.splits()
        if splits.isEmpty, !json {
            // An empty report would leave a family wondering whether anything works.
            print("no bills to split yet: enter each refuel with `fairfuel refuel --liters L --cost C` "
                + "(the first full fill-up charges each driver their estimated fuel since install, the rest was burnt before tracking; "
                + "a fill-up at install is marked with `fairfuel refuel add --baseline`)")
            return
        }
        print(SplitText.render(splits, by: by, json: json, units: units), terminator: "")
    }
}

extension SplitText.Grouping: ExpressibleByArgument {}
