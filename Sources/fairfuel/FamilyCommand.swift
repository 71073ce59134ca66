import ArgumentParser
import FairFuelEdges
import FairFuelPull
import FairFuelService

struct FamilyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "family",
        abstract: "Combine the pulls of several cars into one view per driver.",
        discussion: """
            Each DIR is the --out of a `fairfuel pull`, or the --dir of a `fairfuel hub` (every car it
            received, in the order of their vehicle ids: its database, DIR/hub.db, when it has one), or
            a hub's database (a SQLite file, a postgres:// URL). While the hub waits for a car to send
            what it missed (a `resend` pending), the car's records may be incomplete, and this says so. Drivers are matched by their driver URI uuid
            when the dongle knows one, otherwise by name (ignoring case). What each driver owes is
            summed per currency. The same car given twice (two pulls of it, or its pull and a hub
            directory that holds it) is refused: its bills would count twice.
            """)

    @Argument(help: "Pull directories, one per car, or hub directories.")
    var directories: [String]
    @Flag(help: "Print a JSON array.")
    var json = false

    func validate() throws {
        guard !directories.isEmpty else { throw ValidationError("name at least one pull directory") }
    }

    func run() throws {
        let view = FamilyView(try loadFamilyBooks(directories, command: "family"))
        print(json ? view.json : view.table, terminator: json ? "\n" : "")
        // JSON carries it on each driver; with no driver yet, only this says so.
        if json { for waiting in view.waiting { StandardErrorLog.write(Array(("family: " + FamilyView.waitingNote(waiting) + "\n").utf8)) } }
    }
}

/// The cars `directories` hold (pull directories, or every car of a hub directory), read once.
func loadFamilyBooks(_ directories: [String], command: String) throws -> FamilyBooks {
    // A hub's database (`fairfuel hub --db FILE`) is read as the hub directory it stands for.
    do {
        return try FamilyBooks.load(pullsOrHubs: directories, open: HubDatabases.openForViews)
    } catch {
        throw UserFacingError("\(command): \(error)")
    }
}
