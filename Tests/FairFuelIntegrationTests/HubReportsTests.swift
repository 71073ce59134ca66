import FairFuelStore
import Foundation
import Testing
import TestSupport

/// `split`, `summary` and `report --html` across cars: two cars published through a real Mosquitto
/// into `fairfuel hub` give, over the hub's directory, byte for byte what they give over USB pulls of
/// both cars; Anna, who drives both, is one person.
@Suite(.serialized, .tags(.integration), .enabled(if: MosquittoHarness.toolsPresent && FileManager.default.fileExists(atPath: "/usr/bin/socat"),
                             "\(MosquittoHarness.missingMessage), or socat is missing"))
struct HubReportsTests {
    /// A car with two bills to split: the baseline fill-up, Anna's drives (the second given to `other`), a full tank after.
    static func car(_ directory: String, name: String, port: Int, other: String) throws -> HubTests.Car {
        let db = directory + "/\(name).db"
        let board = directory + "/\(name).toml"
        try "[uplink]\nurl = \"mqtt://127.0.0.1:\(port)\"\n".write(toFile: board, atomically: true, encoding: .utf8)
        func run(_ arguments: [String]) throws -> CommandResult { try HubTests.run(arguments + ["--db", db], board: board) }
        _ = try run(["vehicle", "set", "--name", name])
        _ = try run(["provision", "driver", "add", "Anna", "--tag", HubTests.annaTag, "--beacon", HubTests.annaBeacon])
        _ = try run(["provision", "driver", "add", other])
        _ = try run(["refuel", "--at", "2026-11-20T07:00:00Z", "--liters", "40", "--cost", "72.50"])
        for _ in 0..<3 { _ = try run(["replay", PackagePaths.root + "/samples/drive-20s.ffcap", "--again"]) }
        let trips = try JSONSerialization.jsonObject(with: Data(try run(["trips", "--json"]).standardOutput.utf8)) as! [[String: Any]]
        let closed = trips.filter { !($0["end_reason"] is NSNull) }
        #expect(closed.count == 2)
        _ = try run(["trips", "assign", "\(closed.last!["id"] as! Int)", other])
        _ = try run(["refuel", "--at", "2026-11-20T09:00:00Z", "--liters", "1.5", "--cost", "2.71"])
        return HubTests.Car(db: db, board: board, vehicle: try TripStore(path: db).vehicleUplinkID())
    }

    @Test(.timeLimit(.minutes(1)))
    func splitSummaryAndReportOverTheHubEqualThemOverUSBPulls() throws {
        let scratch = try HubScratch(prefix: "fairfuel-hub-reports")
        defer { scratch.close() }
        let (harness, directory, hubDirectory) = (scratch.harness, scratch.directory, scratch.hubDirectory)

        // The hub's session exists before the cars publish, so the broker keeps their messages for it.
        _ = try HubTests.hub(hubDirectory, port: harness.port)
        let golf = try Self.car(directory, name: "Golf", port: harness.port, other: "Ben")
        let zoe = try Self.car(directory, name: "Zoe", port: harness.port, other: "Cleo")
        try HubTests.publish(golf, port: harness.port)
        try HubTests.publish(zoe, port: harness.port)
        _ = try HubTests.hub(hubDirectory, port: harness.port)

        // USB pulls of both cars, in the hub's order (by vehicle id).
        var pulls: [String] = []
        for (index, car) in [golf, zoe].sorted(by: { $0.vehicle < $1.vehicle }).enumerated() {
            let scratch = directory + "/link\(index)"
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            try HubTests.pull(car, into: directory + "/pull\(index)", scratch: scratch)
            pulls.append(directory + "/pull\(index)")
        }

        let commands: [[String]] = [
            ["split"], ["split", "--json"], ["split", "--by", "driver"], ["split", "--by", "driver", "--json"],
            ["split", "--by", "month", "--json"], ["summary"], ["summary", "--json"], ["summary", "--month", "2026-11"],
        ]
        for command in commands {
            let fromPulls = try HubTests.run(command + pulls).standardOutput
            let fromHub = try HubTests.run(command + [hubDirectory]).standardOutput
            #expect(fromHub == fromPulls, "\(command.joined(separator: " ")): hub:\n\(fromHub)\npulls:\n\(fromPulls)")
        }
        _ = try HubTests.run(["report", "--html", directory + "/pulls.html"] + pulls)
        _ = try HubTests.run(["report", "--html", directory + "/hub.html", hubDirectory])
        let pullsPage = try String(contentsOfFile: directory + "/pulls.html", encoding: .utf8)
        #expect(try String(contentsOfFile: directory + "/hub.html", encoding: .utf8) == pullsPage)
        #expect(pullsPage.contains("<h2>Golf</h2>") && pullsPage.contains("<h2>Zoe</h2>"))

        // Anna drives both cars and is one person; every bill's shares sum to it, as in each car's own store.
        let totals = try JSONSerialization.jsonObject(
            with: Data(try HubTests.run(["split", "--by", "driver", "--json", hubDirectory]).standardOutput.utf8)) as! [[String: Any]]
        #expect(totals.filter { $0["driver"] as? String == "Anna" }.count == 1, "\(totals)")
        #expect(Set(totals.compactMap { $0["driver"] as? String }).isSuperset(of: ["Anna", "Ben", "Cleo"]), "\(totals)")
        let split = try JSONSerialization.jsonObject(
            with: Data(try HubTests.run(["split", "--json", hubDirectory]).standardOutput.utf8)) as! [String: Any]
        var billsAcrossCars = 0
        for car in split["cars"] as! [[String: Any]] {
            for bill in car["refuels"] as! [[String: Any]] {
                let shares = (bill["shares"] as! [[String: Any]]).map { $0["cost_cents"] as! Int }
                #expect(shares.reduce(0, +) == bill["cost_cents"] as! Int, "\(bill)")
                billsAcrossCars += bill["cost_cents"] as! Int
            }
        }
        #expect(billsAcrossCars == 2 * (7250 + 271))
        #expect(totals.reduce(0) { $0 + ($1["cost_cents"] as! Int) } == billsAcrossCars)
        let oneCar = try HubTests.run(["split", "--by", "driver", "--json", "--db", golf.db]).standardOutput
        #expect(oneCar.contains("\"driver\":\"Ben\""), "without directories, split reads the store as before: \(oneCar)")
    }
}
