import ArgumentParser
import FairFuelCore
import FairFuelPull
import FairFuelStore

/// `fairfuel hub status`: the cars a hub directory holds and the messages it refused, with why.
struct HubStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the cars a hub holds, the messages it refused and why, and the commands it sent.")

    @Option(help: "The hub's directory (with --db: where its refusals are kept).")
    var dir = "fairfuel-hub"
    @Option(help: "The hub's database (SQLite file or postgres:// URL, as `fairfuel hub --db`): its cars and commands.")
    var db: String?
    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let cars: [String]
        let refusals: [HubRefusals.Refusal]
        let commands: [HubCommandLog.Command]
        do {
            let directories = try HubCollector.carDirectories(in: dir)
            if let db {
                guard let database = try HubDatabases.openForViews(db) else { throw UserFacingError("hub status: \(db) is not a hub's database (`fairfuel hub --db` writes one)") }
                cars = try database.vehicles()
                commands = try HubDatabaseCommandLog(database).commands(vehicle: nil)
            } else {
                guard let directories else { throw UserFacingError("\(dir) is not a hub's directory (no \(HubCollector.markerName))") }
                cars = directories.map { String($0.split(separator: "/").last ?? "") }
                commands = try HubCommandLog.read(directory: dir)
            }
            refusals = directories == nil ? [] : try HubRefusals.read(directory: dir)
        } catch let error as PullClientError {
            throw UserFacingError("hub status: \(error)")
        } catch let error as StoreError {
            throw UserFacingError("hub status: \(error)")
        }
        if json {
            var out = JSONLine()
            out.addRaw("cars", json: JSONLine.array(cars.map { car in
                var quoted = ""
                JSONLine.appendQuoted(car, to: &quoted)
                return quoted
            }))
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
            return
        }
        print("cars: \(cars.count)" + (cars.isEmpty ? "" : " (" + cars.joined(separator: ", ") + ")"))
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
}
