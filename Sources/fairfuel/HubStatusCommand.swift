import ArgumentParser
import FairFuelCore
import FairFuelPull
import FairFuelStore

/// `fairfuel hub status`: the cars a hub holds (a directory's, or a database's with their records),
/// the messages it refused and why, the commands it sent, and whether it asks late cars for what it missed.
struct HubStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the cars a hub holds, the messages it refused and why, and the commands it sent.",
        discussion: """
            The hub's database is --db (a SQLite file or postgres:// URL, as `fairfuel hub --db` writes
            it), else the --dir's own (DIR/hub.db, which `fairfuel hub` keeps by default): the cars are
            the database's, each with its records per kind and when the hub last stored one, and so are
            the commands it sent (`hub command`, the hub's web app) and the messages it refused (every
            instance of a --share group's). A hub kept in car directories (--car-directories) has them
            all in its --dir.
            """)

    @Option(help: "The hub's directory (its database, DIR/hub.db, unless --db names another).")
    var dir = "fairfuel-hub"
    @Option(help: "The hub's database: a SQLite file or postgres://USER@HOST[:PORT]/DB (the password in PGPASSWORD).")
    var db: String?
    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let isHubDirectory: Bool
        var cars: [String] = []
        var summaries: [HubKindSummary]?
        var location = ""
        let refusals: [HubRefusals.Refusal]
        var commands: [HubCommandEntry] = []
        let secrets: String?
        do {
            let directories = try HubCollector.carDirectories(in: dir)
            isHubDirectory = directories != nil
            if let db = db ?? HubDirectoryDatabase.existing(in: dir) {
                let view = try Self.databaseView(db)
                (location, summaries, commands) = (view.location, view.kinds, view.commands)
                cars = view.kinds.map(\.vehicle).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
                refusals = view.refusals
            } else {
                guard let directories else { throw UserFacingError("\(dir) is not a hub's directory (no \(HubCollector.markerName))") }
                cars = directories.map { String($0.split(separator: "/").last ?? "") }
                commands = try HubCommandLog.read(directory: dir)
                refusals = try HubRefusals.read(directory: dir)
            }
            secrets = try isHubDirectory ? HubResendRequests.state(directory: dir) : nil
        } catch let error as PullClientError {
            throw UserFacingError("hub status: \(error)")
        }
        if json {
            printJSON(cars: cars, summaries: summaries, refusals: refusals, commands: commands, secrets: secrets)
            return
        }
        if let summaries {
            print("cars: \(cars.count) in \(location)")
            for car in cars { print("  " + Self.carLine(car, summaries.filter { $0.vehicle == car })) }
        } else {
            print("cars: \(cars.count)" + (cars.isEmpty ? "" : " (" + cars.joined(separator: ", ") + ")"))
        }
        if !isHubDirectory { print("(no hub directory at \(dir): whether the hub asks cars to resend is kept there; give the hub's --dir)") }
        switch secrets {
        case nil: break
        case ""?:
            print("resend: the hub runs without --secrets: it cannot ask a car for what it published before the hub started "
                + "(or while the hub had no store); give it --secrets DIR")
        case let directory?:
            print("resend: the hub asks each car with a secret in \(directory) for what it missed, once a run")
        }
        print("refused messages: \(refusals.count)" + (refusals.count >= HubRefusals.maximumKept ? " (the newest \(HubRefusals.maximumKept))" : ""))
        for refusal in refusals {
            print("  \(UTCTimestamp(millisecondsSinceEpoch: refusal.receivedUTCMs).iso8601) \(refusal.vehicle)/\(refusal.kind)"
                + (refusal.messageID.map { " message \($0)" } ?? "") + ": \(refusal.reason)")
        }
        let pendingCount = commands.filter { $0.state == "pending" }.count
        print("commands: \(commands.count)" + (pendingCount > 0 ? " (\(pendingCount) pending)" : ""))
        for command in commands {
            print("  \(UTCTimestamp(millisecondsSinceEpoch: command.sentUTCMs).iso8601) \(command.vehicle) \(command.id) \(command.name): \(command.state)"
                + (command.reason.map { ": \($0)" } ?? ""))
        }
    }

    /// The database's records per car and kind, the commands it lists, the refusals it keeps, and
    /// where it is (a URL without its password); a clear refusal for what is not a hub's database.
    static func databaseView(_ argument: String) throws
        -> (location: String, kinds: [HubKindSummary], commands: [HubCommandEntry], refusals: [HubRefusal])
    {
        do {
            guard let database = try HubDatabases.openForViews(argument) else {
                throw UserFacingError("hub status: \(argument) is not a hub's database (a SQLite file `fairfuel hub --db` wrote, or a postgres:// URL)")
            }
            return (
                database.location, try database.kindSummaries(), try HubDatabaseCommandLog(database).commands(vehicle: nil),
                try HubDatabaseRefusals.read(database)
            )
        } catch let error as StoreError {
            throw UserFacingError("hub status: \(error)")
        } catch let error as PullClientError {
            throw UserFacingError("hub status: \(error)")
        }
    }

    /// `<vehicle>: 5 trip(s), 2 refuel(s), 2 split(s) (1 deleted); last stored 2026-…Z`
    static func carLine(_ car: String, _ kinds: [HubKindSummary]) -> String {
        let counts = ["trip", "refuel", "split"].map { kind in "\(kinds.first { $0.kind == kind }?.live ?? 0) \(kind)(s)" }
        let deleted = kinds.reduce(0) { $0 + $1.deleted }
        let last = kinds.compactMap(\.lastStoredUTCMs).max().map { "; last stored \(UTCTimestamp(millisecondsSinceEpoch: $0).iso8601)" } ?? ""
        return "\(car): " + counts.joined(separator: ", ") + (deleted > 0 ? " (\(deleted) deleted)" : "") + last
    }

    private func printJSON(
        cars: [String], summaries: [HubKindSummary]?, refusals: [HubRefusals.Refusal], commands: [HubCommandEntry], secrets: String?
    ) {
        var out = JSONLine()
        out.addRaw("cars", json: JSONLine.array(cars.map { car in
            var quoted = ""
            JSONLine.appendQuoted(car, to: &quoted)
            return quoted
        }))
        if let summaries {
            out.addRaw("records", json: JSONLine.array(cars.map { car in
                let kinds = summaries.filter { $0.vehicle == car }
                var r = JSONLine()
                r.add("vehicle", car)
                for kind in ["trip", "refuel", "split"] { r.add(kind + "s", kinds.first { $0.kind == kind }?.live ?? 0) }
                r.add("deleted", kinds.reduce(0) { $0 + $1.deleted })
                r.add("highest_message_id", kinds.compactMap(\.highestMessageID).max())
                r.add("last_stored_utc", kinds.compactMap(\.lastStoredUTCMs).max().map { UTCTimestamp(millisecondsSinceEpoch: $0).iso8601 })
                return r.string
            }))
        }
        out.add("asks_cars_to_resend", secrets.map { !$0.isEmpty })
        out.addRaw("refused", json: JSONLine.array(refusals.map { refusal in
            var r = JSONLine()
            r.add("received_utc", UTCTimestamp(millisecondsSinceEpoch: refusal.receivedUTCMs).iso8601)
            r.add("vehicle", refusal.vehicle)
            r.add("topic", refusal.kind)
            r.add("message_id", refusal.messageID)
            r.add("reason", refusal.reason)
            return r.string
        }))
        out.addRaw("commands", json: JSONLine.array(commands.map { $0.json(withVehicle: true) }))
        print(out.string)
    }
}
