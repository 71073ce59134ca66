import ArgumentParser
import FairFuelPull
import FairFuelService

struct FamilyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "family",
        abstract: "Combine the pulls of several cars into one view per driver.",
        discussion: """
            Each DIR is the --out of a `fairfuel pull`. Drivers are matched by their driver URI uuid
            when the dongle knows one, otherwise by name (ignoring case). What each driver owes is
            summed per currency.
            """)

    @Argument(help: "Pull directories, one per car.")
    var directories: [String]
    @Flag(help: "Print a JSON array.")
    var json = false

    func validate() throws {
        guard !directories.isEmpty else { throw ValidationError("name at least one pull directory") }
    }

    func run() throws {
        let view: FamilyView
        do { view = try FamilyView.load(directories: directories) } catch { throw UserFacingError("family: \(error)") }
        print(json ? view.json : view.table, terminator: json ? "\n" : "")
    }
}
