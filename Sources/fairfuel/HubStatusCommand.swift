import ArgumentParser
import FairFuelCore
import FairFuelPull

/// `fairfuel hub status`: the cars a hub directory holds and the messages it refused, with why.
struct HubStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the cars a hub directory holds and the messages it refused, and why.")

    @Option(help: "The hub's directory.")
    var dir = "fairfuel-hub"
    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let cars: [String]
        let refusals: [HubRefusals.Refusal]
        do {
            guard let directories = try HubCollector.carDirectories(in: dir) else { throw UserFacingError("\(dir) is not a hub's directory (no \(HubCollector.markerName))") }
            cars = directories.map { String($0.split(separator: "/").last ?? "") }
            refusals = try HubRefusals.read(directory: dir)
        } catch let error as PullClientError {
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
            print(out.string)
            return
        }
        print("cars: \(cars.count)" + (cars.isEmpty ? "" : " (" + cars.joined(separator: ", ") + ")"))
        print("refused messages: \(refusals.count)" + (refusals.count >= HubRefusals.maximumKept ? " (the newest \(HubRefusals.maximumKept))" : ""))
        for refusal in refusals {
            print("  \(UTCTimestamp(millisecondsSinceEpoch: refusal.receivedUTCMs).iso8601) \(refusal.vehicle)/\(refusal.kind)"
                + (refusal.messageID.map { " message \($0)" } ?? "") + ": \(refusal.reason)")
        }
    }
}
