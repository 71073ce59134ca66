import FairFuelDomain
@testable import FairFuelPull
import Testing

/// `fairfuel hub command`'s words, read into a command as the car's own CLI words are: each
/// command once, and each mistake with its message.
@Suite struct HubCommandWordsTests {
    enum Reading: Equatable {
        case success(FleetCommand.Operation)
        case failure(String)
    }

    /// `carCurrency`: the car's as the hub's records have it (nil: the hub holds no bill of it).
    static func read(_ line: String, carCurrency: String? = "EUR") -> Reading {
        do throws(HubCommandWords.Problem) {
            return .success(try HubCommandWords.operation(line.split(separator: " ").map(String.init), carCurrency: carCurrency))
        } catch {
            return .failure(error.message)
        }
    }

    @Test func everyCommandReadsAsTheCarsCLIWouldTakeIt() {
        #expect(Self.read("refuel add --at 2026-11-25T17:20Z --liters 41.2 --cost 73.96 --partial --station Aral --odometer-km 48213")
            == .success(.refuelAdd(.init(atUTCMs: 1795627200000,  // 2026-11-25T17:20Z
                                         liters: 41.2, costMinorUnits: 7_396, currency: "EUR", fullTank: false, odometerKilometers: 48_213, station: "Aral"))))
        #expect(Self.read("refuel edit 12 --liters 40 --full") == .success(.refuelEdit(refuel: 12, .init(liters: 40, fullTank: true))))
        #expect(Self.read("refuel remove 3") == .success(.refuelRemove(refuel: 3)))
        #expect(Self.read("trip assign 42,u7 Anna") == .success(.tripAssign(trips: ["42", "u7"], driver: "Anna")))
        #expect(Self.read("trips delete 42") == .success(.tripDelete(trip: "42")))
        #expect(Self.read("trip move 42 Bob") == .success(.tripMove(trip: "42", driver: "Bob")))
        // Assigning a recorded trip is still an assign.
        #expect(Self.read("trip assign 42 Bob") == .success(.tripAssign(trips: ["42"], driver: "Bob")))
        #expect(Self.read("baseline mark --at 2026-11-25T17:20Z") == .success(.baselineMark(atUTCMs: 1795627200000)))
        #expect(Self.read("baseline mark") == .success(.baselineMark(atUTCMs: nil)))
        #expect(Self.read("settle 1 2") == .success(.settle(refuels: [1, 2])))
        #expect(Self.read("unsettle 2") == .success(.unsettle(refuels: [2])))
        #expect(Self.read("resend --since 1042") == .success(.resend(sinceMessageID: 1_042)))
    }

    @Test func mistakesAreRefusedWithWhatToSay() {
        let cases: [(String, String)] = [
            ("", "say a command"),
            ("launch", "say a command"),
            ("refuel", "say `refuel add`"),
            ("refuel add --liters 40 --cost 1", "--at is needed"),
            ("refuel add --at 2026-11-25T17:20Z --liters forty --cost 1", "--liters forty is not a number"),
            ("refuel add --at 2026-11-25T17:20Z --liters 40 --cost 1 --colour red", "--colour is not an option"),
            ("refuel add --at 2026-11-25T17:20Z --liters 40 --liters 41 --cost 1", "--liters is given twice"),
            ("refuel add --at yesterday --liters 40 --cost 1", "--at:"),
            ("refuel add --at 2026-11-25T17:20Z --liters 40 --cost abc", "--cost:"),
            ("refuel edit x --liters 40", "refuel edit ID"),
            ("refuel edit 3 --full --partial", "exclusive"),
            ("refuel remove 3 4", "unexpected '4'"),
            ("trip assign 42", "trip assign TRIP"),
            ("trip move 42", "say `trip move TRIP DRIVER`"),
            ("trip move u7 Bob", "one recorded trip"),
            ("trip move 42,43 Bob", "one recorded trip"),
            ("trip move 42 Bob Anna", "unexpected 'Anna'"),
            ("trip launch 42", "trip move TRIP DRIVER"),
            ("baseline", "say `baseline mark"),
            ("baseline mark --liters 40", "--liters is not an option"),
            ("baseline mark --at tomorrow", "--at:"),
            ("settle", "say which bills"),
            ("settle 0", "positive ids"),
            ("resend", "--since is needed"),
            ("resend --since -1", "--since is an outbox message id"),
        ]
        for (line, message) in cases {
            guard case let .failure(text) = Self.read(line) else {
                Issue.record("'\(line)' was read")
                continue
            }
            #expect(text.contains(message), "'\(line)': \(text)")
        }
    }

    /// A cost is read in the minor units of the car's currency (as the hub's records of its bills
    /// have it, or `--currency`), and the command carries the code: 1500 for a yen car is 1500 yen,
    /// never 150 000.
    @Test func aCostIsReadInTheCarsCurrency() {
        let add = "refuel add --at 2026-11-25T17:20Z --liters 30 --cost 1500"
        #expect(Self.read(add, carCurrency: "JPY")
            == .success(.refuelAdd(.init(atUTCMs: 1795627200000, liters: 30, costMinorUnits: 1_500, currency: "JPY"))))
        #expect(Self.read(add, carCurrency: "EUR")
            == .success(.refuelAdd(.init(atUTCMs: 1795627200000, liters: 30, costMinorUnits: 150_000, currency: "EUR"))))
        #expect(Self.read("refuel add --at 2026-11-25T17:20Z --liters 30 --cost 1.500 --currency kwd", carCurrency: nil)
            == .success(.refuelAdd(.init(atUTCMs: 1795627200000, liters: 30, costMinorUnits: 1_500, currency: "KWD"))))
        #expect(Self.read(add + " --currency JPY", carCurrency: "JPY")
            == .success(.refuelAdd(.init(atUTCMs: 1795627200000, liters: 30, costMinorUnits: 1_500, currency: "JPY"))))
        #expect(Self.read("refuel edit 12 --cost 1500", carCurrency: "JPY")
            == .success(.refuelEdit(refuel: 12, .init(costMinorUnits: 1_500, currency: "JPY"))))
        // An edit without a cost needs no currency, even when the hub knows none.
        #expect(Self.read("refuel edit 12 --liters 40", carCurrency: nil) == .success(.refuelEdit(refuel: 12, .init(liters: 40))))
        let cases: [(String, String?, String)] = [
            (add, nil, "--cost: say its currency (--currency EUR)"),
            ("refuel edit 12 --cost 15", nil, "--cost: say its currency"),
            (add + " --currency EUR", "JPY", "--currency EUR is not the car's: its bills at the hub are in JPY"),
            (add + " --currency XYZ", nil, "'XYZ' is not an ISO 4217 code"),
            ("refuel add --at 2026-11-25T17:20Z --liters 30 --cost 15.50", "JPY", "--cost:"),
        ]
        for (line, car, message) in cases {
            guard case let .failure(text) = Self.read(line, carCurrency: car) else {
                Issue.record("'\(line)' was read for a \(car ?? "nil") car")
                continue
            }
            #expect(text.contains(message), "'\(line)': \(text)")
        }
    }
}
