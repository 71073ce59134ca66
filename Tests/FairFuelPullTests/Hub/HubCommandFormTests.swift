import FairFuelDomain
@testable import FairFuelPull
import Testing

/// The hub's web forms read as `fairfuel hub command`'s words: the same operation as the CLI line,
/// the same messages for the same mistakes.
@Suite struct HubCommandFormTests {
    static func cli(_ line: String) throws -> FleetCommand.Operation {
        try HubCommandWords.operation(line.split(separator: " ").map(String.init), carCurrency: "EUR")
    }

    @Test func eachFormIsTheCLIsLine() throws {
        let cases: [(String, [String: String], String)] = [
            ("refuel add", ["at": "2026-11-25T17:20Z", "liters": "41.2", "cost": "73.96", "full": "1", "odometer_km": "", "station": "Aral"],
             "refuel add --at 2026-11-25T17:20Z --liters 41.2 --cost 73.96 --station Aral"),
            ("refuel add", ["at": "2026-11-25T17:20Z", "liters": "12", "cost": "20", "odometer_km": "12000"],
             "refuel add --at 2026-11-25T17:20Z --liters 12 --cost 20 --odometer-km 12000 --partial"),
            ("refuel edit", ["refuel": "3", "cost": "60.10", "full": "0"], "refuel edit 3 --cost 60.10 --partial"),
            ("refuel edit", ["refuel": "3", "liters": "40", "full": ""], "refuel edit 3 --liters 40"),
            ("refuel remove", ["refuel": "3"], "refuel remove 3"),
            ("trip assign", ["trip": "42,u7", "driver": "Anna"], "trip assign 42,u7 Anna"),
            ("trip move", ["trip": "42", "driver": "Bob"], "trip move 42 Bob"),
            ("trip delete", ["trip": "42"], "trip delete 42"),
            ("baseline mark", ["at": "2026-11-20T08:00Z"], "baseline mark --at 2026-11-20T08:00Z"),
            ("baseline mark", [:], "baseline mark"),
            ("settle", ["refuel": "12, 13"], "settle 12 13"),
            ("unsettle", ["refuel": "12"], "unsettle 12"),
        ]
        for (action, fields, line) in cases {
            let (operation, force) = try HubCommandWords.operation(action: action, fields: fields, carCurrency: "EUR")
            #expect(operation == (try Self.cli(line)), "\(action) \(fields)")
            #expect(!force)
        }
        #expect(try HubCommandWords.operation(action: "settle", fields: ["refuel": "1", "confirm": "1"]).force)
    }

    @Test func aWrongFormGetsTheCLIsMessage() {
        let cases: [(String, [String: String], String)] = [
            ("launch", [:], "action: say one of"),
            ("refuel add", ["liters": "40", "cost": "1"], "--at is needed"),
            ("refuel add", ["at": "2026-11-25T17:20Z", "liters": "lots", "cost": "1"], "--liters lots is not a number"),
            ("refuel edit", ["liters": "40"], "refuel: say which refuel"),
            ("trip assign", ["trip": "42"], "driver: say to whom"),
            ("trip move", ["driver": "Bob"], "trip: say which recorded trip (42)"),
            ("trip move", ["trip": "u7", "driver": "Bob"], "untracked driving (u7) is given with `trip assign`"),
            ("settle", ["refuel": "0"], "positive ids"),
        ]
        for (action, fields, message) in cases {
            do throws(HubCommandWords.Problem) {
                _ = try HubCommandWords.operation(action: action, fields: fields)
                Issue.record("\(action) \(fields) was read")
            } catch {
                #expect(error.message.contains(message), "\(action): \(error.message)")
            }
        }
    }

    /// The form's cost is read in the car's currency as `hub command` reads it: a yen car's 1500 is
    /// 1500 yen; a `currency` field must be the car's, and is what a car the hub knows no bill of needs.
    @Test func aFormsCostIsInTheCarsCurrency() throws {
        let fields = ["at": "2026-11-25T17:20Z", "liters": "30", "cost": "1500", "full": "1"]
        #expect(try HubCommandWords.operation(action: "refuel add", fields: fields, carCurrency: "JPY").operation
            == .refuelAdd(.init(atUTCMs: 1795627200000, liters: 30, costMinorUnits: 1_500, currency: "JPY")))
        var stated = fields
        stated["currency"] = "EUR"
        #expect(try HubCommandWords.operation(action: "refuel add", fields: stated).operation
            == .refuelAdd(.init(atUTCMs: 1795627200000, liters: 30, costMinorUnits: 150_000, currency: "EUR")))
        for (form, car, message) in [(stated, "JPY", "--currency EUR is not the car's"), (fields, nil, "say its currency")] as [([String: String], String?, String)] {
            do throws(HubCommandWords.Problem) {
                _ = try HubCommandWords.operation(action: "refuel add", fields: form, carCurrency: car)
                Issue.record("\(form) was read for a \(car ?? "nil") car")
            } catch {
                #expect(error.message.contains(message), "\(error.message)")
            }
        }
    }
}
