import ArgumentParser
import FairFuelPull
import FairFuelService

struct FamilyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "family",
        abstract: "Combine the pulls of several cars into one view per driver.",
        discussion: """
            Each DIR is the --out of a `fairfuel pull`, or the --dir of a `fairfuel hub` (every car it
            received, in the order of their vehicle ids). Drivers are matched by their driver URI uuid
            when the dongle knows one, otherwise by name (ignoring case). What each driver owes is
            summed per currency.
            """)

    @Argument(help: "Pull directories, one per car, or hub directories.")
    var directories: [String]
    @Flag(help: "Print a JSON array.")
    var json = false

    func validate() throws {
        guard !directories.isEmpty else { throw ValidationError("name at least one pull directory") }
    }

    func run() throws {
        let view: FamilyView
        do {
            var cars: [String] = []
            for directory in directories { cars += try HubCollector.carDirectories(in: directory) ?? [directory] }
            view = try FamilyView.load(directories: cars)
        } catch {
            throw UserFacingError("family: \(error)")
        }
        print(json ? view.json : view.table, terminator: json ? "\n" : "")
    }
}
