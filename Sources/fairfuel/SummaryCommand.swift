import ArgumentParser
import FairFuelCore
import FairFuelPull
import FairFuelReports
import FairFuelService
import FairFuelStore

struct SummaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary",
        abstract: "Per driver: distance, time, fuel, cost, harsh events, eco score; and the real consumption between full fills.",
        discussion: """
            With DIR... (pull or hub directories, as `fairfuel family` takes them): per person across cars (drivers \
            joined by driver URI uuid, else by name), in the first car's units and currency. Pulls carry neither fuel \
            traces nor rated consumption: no full fills and no eco score there.
            """)

    @Argument(help: "Pull directories, one per car, or hub directories; none: the store.")
    var directories: [String] = []
    @Option(help: "A calendar month, YYYY-MM, in the vehicle's time zone; default: all time.")
    var month: String?
    @Flag(help: "Print one JSON object (SI units, money in minor units).")
    var json = false
    @OptionGroup var store: StoreOptions

    func validate() throws {
        if !directories.isEmpty, store.path != nil { throw ValidationError("give pull directories or --db, not both") }
    }

    func run() throws {
        let month = try parseMonth(self.month)
        if !directories.isEmpty {
            print(try loadFamilyBooks(directories, command: "summary").summaryText(month, json: json), terminator: "")
            return
        }
        let db = try store.openReadOnly()
        let data = try FamilyData(db)
        let summary = data.summary(month)
        let learned = try db.learnedConsumption()
        if json {
            print(SummaryText.json(summary, learnedConsumption: LearnedConsumptionText.json(learned)))
        } else {
            print(SummaryText.text(summary, vehicle: data.vehicle.name, units: data.units), terminator: "")
            // Said once there is a full tank to learn from; `vehicle show` says it always.
            if let learned, learned.fit.periodsUsed > 0 { print(LearnedConsumptionText.text(learned, units: data.units)) }
        }
    }
}

