import FairFuelPull
import Foundation
import Testing

/// `fairfuel family`: two cars' pulls become one line per person.
@Suite struct FamilyViewTests {
    /// A pull directory's state files, as `fairfuel pull` leaves them.
    static func pull(vehicle: String, drivers: [String], trips: [String], splits: [String], hubRecords: Bool = false) throws -> String {
        let directory = NSTemporaryDirectory() + "fairfuel-family-\(UUID().uuidString)"
        let state = directory + "/.fairfuel-pull"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        func write(_ name: String, _ lines: [String]) throws {
            try lines.map { $0 + "\n" }.joined().write(toFile: state + "/" + name, atomically: true, encoding: .utf8)
        }
        try write("vehicle.tsv", [vehicle])
        try write("drivers.tsv", drivers)
        try write("trips.tsv", trips)
        try write("splits.tsv", splits)
        // What makes a car directory a hub's copy (`fairfuel hub` keeps the messages it is made from there).
        if hubRecords { try write("hub-records.tsv", []) }
        return directory
    }

    static func trip(_ id: Int, driverID: String, name: String, meters: Double, liters: Double) -> String {
        ["\(id)", driverID, name, "1763625600000", "1763627400000", "departed", "\(meters)", "1800000", "1500000", "300000",
         "20.5", "1", "0", "\(liters)", "", ""].joined(separator: "\t")
    }

    @Test func driversMatchByUUIDThenByNameAndOweAcrossCars() throws {
        let uuid = "3f2a1b4c-5d6e-4f70-8192-a3b4c5d6e7f8"
        let golf = try Self.pull(
            vehicle: "Golf\tEUR\t2\tmetric\tpetrol",
            drivers: ["1\tAlice\t\(uuid)", "2\tBob\t"],
            trips: [Self.trip(1, driverID: "1", name: "Alice", meters: 10_000, liters: 0.7),
                    Self.trip(2, driverID: "2", name: "Bob", meters: 5_000, liters: 0.4)],
            splits: ["1\t1763630000000\t40\t7250\t1\t1\tAlice\t26\t4713", "1\t1763630000000\t40\t7250\t1\t2\tBob\t14\t2537"])
        // The second car calls her "Ali" but knows her driver URI; Bob is matched by name, any case.
        let van = try Self.pull(
            vehicle: "Van\tEUR\t2\tmetric\tdiesel",
            drivers: ["4\tAli\t\(uuid)", "5\tbob\t"],
            trips: [Self.trip(9, driverID: "4", name: "Ali", meters: 20_000, liters: 1.5),
                    Self.trip(10, driverID: "5", name: "bob", meters: 1_000, liters: 0.1)],
            splits: ["3\t1763640000000\t30\t5400\t1\t4\tAli\t30\t5400"])
        let view = try FamilyView.load(directories: [golf, van])
        #expect(view.cars == ["Golf", "Van"])
        #expect(view.drivers.count == 2)
        let alice = try #require(view.drivers.first { $0.uuid == uuid })
        #expect(alice.name == "Alice")
        #expect(alice.cars == ["Golf", "Van"])
        #expect(alice.trips == 2)
        #expect(abs(alice.distanceMeters - 30_000) < 0.001)
        #expect(alice.owes.map(\.amount) == [4713 + 5400])
        let bob = try #require(view.drivers.first { $0.name == "Bob" })
        #expect(bob.trips == 2 && bob.owes.map(\.amount) == [2537])
        #expect(view.table.contains("101.13 EUR"))
        #expect(view.json.contains("\"driver_uuid\":\"\(uuid)\""))
    }

    /// Two cars called "Golf" stay two cars; the same car pulled into two directories is refused.
    @Test func carsAreJoinedByTheirUniqueIDNotTheirName() throws {
        let trips = [Self.trip(1, driverID: "1", name: "Alice", meters: 10_000, liters: 0.7)]
        let first = try Self.pull(vehicle: "Golf\tEUR\t2\tmetric\tpetrol\t11111111-aaaa-4aaa-8aaa-aaaaaaaaaaaa",
                                  drivers: ["1\tAlice\t"], trips: trips, splits: [])
        let second = try Self.pull(vehicle: "Golf\tEUR\t2\tmetric\tpetrol\t22222222-bbbb-4bbb-8bbb-bbbbbbbbbbbb",
                                   drivers: ["1\tAlice\t"], trips: trips, splits: [])
        let view = try FamilyView.load(directories: [first, second])
        #expect(view.cars == ["Golf (11111111)", "Golf (22222222)"])
        #expect(view.drivers.map(\.cars) == [["Golf (11111111)", "Golf (22222222)"]])
        #expect(view.drivers.map(\.trips) == [2])
        // Renamed since the first pull, pulled again elsewhere: the same car, not a second one.
        let renamed = try Self.pull(vehicle: "Family Golf\tEUR\t2\tmetric\tpetrol\t11111111-AAAA-4aaa-8aaa-aaaaaaaaaaaa",
                                    drivers: ["1\tAlice\t"], trips: trips, splits: [])
        do {
            _ = try FamilyView.load(directories: [first, renamed])
            Issue.record("the same car twice was accepted")
        } catch {
            #expect("\(error)".contains("hold the same car (vehicle id 11111111-aaaa-4aaa-8aaa-aaaaaaaaaaaa"))
        }
        // A pull from an older dongle (no id) still loads.
        let old = try Self.pull(vehicle: "Golf\tEUR\t2\tmetric\tpetrol", drivers: ["1\tAlice\t"], trips: trips, splits: [])
        #expect(try FamilyView.load(directories: [first, old]).cars.count == 2)
    }

    /// A car pulled over USB and kept by a hub is one car: given both ways it is refused (its bills would
    /// count twice), whether the hub has the store's id (`vehicle_uid`, from newer cars) or, written
    /// before cars sent it, only the topic's id, which a newer pull carries too.
    @Test func aPullAndAHubsCopyOfTheSameCarAreOneCar() throws {
        let uid = "461c9861-aaaa-4aaa-8aaa-aaaaaaaaaaaa", topicID = "99b01dfd0000000000000000000000aa"
        let trips = [Self.trip(1, driverID: "1", name: "Cara", meters: 10_000, liters: 0.7)]
        let splits = ["1\t1763630000000\t10\t1404\t1\t1\tCara\t10\t1404\tEUR\t0"]
        let pull = try Self.pull(vehicle: "Golf\tEUR\t2\tmetric\tpetrol\t\(uid)\t\t\(topicID)", drivers: ["1\tCara\t"], trips: trips, splits: splits)
        let hubCopy = try Self.pull(vehicle: "Golf\tEUR\t2\tmetric\t\t\(uid)\t\t\(topicID)", drivers: ["1\tCara\t"], trips: trips,
                                    splits: splits, hubRecords: true)
        let olderHubCopy = try Self.pull(vehicle: "Golf\tEUR\t2\tmetric\t\t\(topicID)", drivers: ["1\tCara\t"], trips: trips,
                                         splits: splits, hubRecords: true)
        for hub in [hubCopy, olderHubCopy] {
            for directories in [[pull, hub], [hub, pull]] {
                do {
                    let view = try FamilyView.load(directories: directories)
                    Issue.record("one car given twice was accepted: Cara owes \(view.drivers.first?.owes.map(\.amount) ?? [])")
                } catch {
                    #expect("\(error)".contains("\(pull) and \(hub) hold the same car"), "\(error)")
                    #expect("\(error)".contains("a USB pull of it and a hub's copy of it"), "\(error)")
                    #expect("\(error)".contains("the hub's directory or the pull, not both"), "\(error)")
                }
            }
        }
        // Another car beside the pull is another car; the pull alone owes the bill once.
        let van = try Self.pull(vehicle: "Van\tEUR\t2\tmetric\t\t22222222-bbbb-4bbb-8bbb-bbbbbbbbbbbb\t\t0000000000000000000000000000bbbb",
                                drivers: [], trips: [], splits: [], hubRecords: true)
        let view = try FamilyView.load(directories: [pull, van])
        #expect(view.cars == ["Golf", "Van"])
        #expect(view.drivers.first { $0.name == "Cara" }?.owes.map(\.amount) == [1404])
    }

    /// Each bill keeps its currency through the pull; the baseline's share is no driver's and not untracked driving.
    @Test func sharesKeepTheirBillsCurrencyAndTheBaselineStandsApart() throws {
        let golf = try Self.pull(
            vehicle: "Golf\tUSD\t2\tmetric\tpetrol\t11111111-aaaa-4aaa-8aaa-aaaaaaaaaaaa",
            drivers: ["1\tAlice\t"], trips: [Self.trip(1, driverID: "1", name: "Alice", meters: 10_000, liters: 0.7)],
            splits: ["1\t1763630000000\t40\t7250\t1\t\t\t26\t7250\tEUR\t1",
                     "2\t1763640000000\t10\t2000\t1\t1\tAlice\t9\t1800\tEUR\t0",
                     "2\t1763640000000\t10\t2000\t1\t\t\t1\t200\tEUR\t0",
                     "3\t1763650000000\t10\t2100\t1\t1\tAlice\t10\t2100\tUSD\t0"])
        let view = try FamilyView.load(directories: [golf])
        let alice = try #require(view.drivers.first { $0.name == "Alice" })
        #expect(alice.owes.map { "\($0.currency) \($0.amount)" } == ["EUR 1800", "USD 2100"])
        #expect(view.drivers.first { $0.name == "(before tracking)" }?.owes.map(\.amount) == [7250])
        #expect(view.drivers.first { $0.name == "(untracked)" }?.owes.map(\.amount) == [200])
    }

    @Test func aDirectoryWithoutAPullIsAClearError() {
        #expect(throws: (any Error).self) { try FamilyView.load(directories: [NSTemporaryDirectory() + "no-such-pull"]) }
        do {
            _ = try FamilyView.load(directories: [NSTemporaryDirectory() + "no-such-pull"])
        } catch {
            #expect("\(error)".contains("holds no pull"))
        }
    }

    /// Months across cars are one calendar's: the cars' own zone when they share one, else UTC.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Europe/Berlin")))
    func theFamilysMonthsAreTheCarsZoneWhenTheyShareOne() throws {
        // Alice's bill at 23:30 UTC on 30 November: 00:30 on 1 December in Berlin.
        let lateBill = "1\t1796081400000\t40\t7250\t1\t1\tAlice\t40\t7250"
        func car(_ name: String, zone: String?) throws -> String {
            let line = "\(name)\tEUR\t2\tmetric\tpetrol\t\(name.lowercased())0000000000000000000000000000"
            return try Self.pull(
                vehicle: zone.map { line + "\t" + $0 } ?? line,
                drivers: ["1\tAlice\t"], trips: [Self.trip(1, driverID: "1", name: "Alice", meters: 10_000, liters: 0.7)],
                splits: [lateBill])
        }
        let berlin = try FamilyBooks.load(directories: [try car("Golf", zone: "Europe/Berlin"), try car("Van", zone: "Europe/Berlin")])
        #expect(berlin.units.timeZone.name == "Europe/Berlin")
        #expect(berlin.summaryText(nil, json: false).hasPrefix("Golf + Van, all time (Europe/Berlin time)\n"))
        #expect(berlin.splitText(by: .month, json: false).contains("2026-12"), "the bill is December's in Berlin")
        #expect(berlin.latestMonth?.description == "2026-12")

        let mixed = try FamilyBooks.load(directories: [try car("Golf", zone: "Europe/Berlin"), try car("Van", zone: nil)])
        #expect(mixed.units.timeZone.name == "UTC")
        #expect(mixed.cars[0].units.timeZone.name == "Europe/Berlin", "each car keeps its own")
        #expect(mixed.latestMonth?.description == "2026-11", "one calendar: UTC when the cars differ")
    }
}
