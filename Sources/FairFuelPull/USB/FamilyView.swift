import FairFuelCore
import FairFuelReports
import FairFuelStore

/// The pulls of several dongles combined into one line per driver: distance, fuel, and what
/// each owes across all cars (per currency, since cars may keep their books in different ones).
///
/// Drivers are joined into people and cars told apart as `FamilyBooks` does.
public struct FamilyView: Sendable, Equatable {
    public struct Driver: Sendable, Equatable {
        public var name: String
        public var uuid: String?
        public var cars: [String]
        public var trips: Int
        public var distanceMeters: Double
        public var fuelLiters: Double
        /// Amount owed in minor units, by currency code, in the order first seen.
        public var owes: [(currency: String, minorDigits: Int, amount: Int64)]

        public static func == (a: Driver, b: Driver) -> Bool {
            a.name == b.name && a.uuid == b.uuid && a.cars == b.cars && a.trips == b.trips && a.distanceMeters == b.distanceMeters
                && a.fuelLiters == b.fuelLiters && a.owes.map { "\($0.currency)\($0.amount)" } == b.owes.map { "\($0.currency)\($0.amount)" }
        }
    }

    public var cars: [String]
    public var drivers: [Driver]
    /// The cars a hub waits for (their records may be incomplete, so may everyone's figures).
    public var waiting: [FamilyBooks.Waiting] = []

    /// Reads each pull directory's state (`.fairfuel-pull/`); a directory without one is an error.
    public static func load(directories: [String]) throws(PullClientError) -> FamilyView {
        FamilyView(try FamilyBooks.load(directories: directories))
    }

    /// Each person's trips and shares added up, in the order the books list them.
    public init(_ books: FamilyBooks) {
        cars = books.cars.map(\.label)
        waiting = books.waiting
        drivers = books.people.map { Driver(name: $0.name, uuid: $0.uuid, cars: [], trips: 0, distanceMeters: 0, fuelLiters: 0, owes: []) }
        for car in books.cars {
            func noteCar(_ i: Int) { if !drivers[i].cars.contains(car.label) { drivers[i].cars.append(car.label) } }
            for (trip, i) in zip(car.trips, car.tripPeople) {
                noteCar(i)
                drivers[i].trips += 1
                drivers[i].distanceMeters += trip.distanceMeters
                drivers[i].fuelLiters += trip.fuelLiters
            }
            for (split, people) in zip(car.splits, car.sharePeople) {
                // A bill keeps its own currency; a pull from an older dongle has the car's.
                let currency = split.refuel.currency ?? car.units.currency
                let digits = currency == car.units.currency
                    ? car.units.currencyMinorDigits : VehicleProfile.minorDigits(ofCurrency: currency) ?? car.units.currencyMinorDigits
                for (share, i) in zip(split.shares, people) {
                    noteCar(i)
                    if let k = drivers[i].owes.firstIndex(where: { $0.currency == currency }) {
                        drivers[i].owes[k].amount += share.cost.value
                    } else {
                        drivers[i].owes.append((currency, digits, share.cost.value))
                    }
                }
            }
        }
    }

    /// One JSON object per driver, in an array; while a hub waits for a car, each says so (`incomplete`).
    public var json: String {
        let incomplete = waiting.isEmpty ? nil : Self.waitingJSON(waiting)
        return JSONLine.array(drivers.map { d in
            var j = JSONLine()
            j.add("driver", d.name)
            j.add("driver_uuid", d.uuid)
            j.addRaw("cars", json: JSONLine.array(d.cars.map { car in
                var quoted = ""
                JSONLine.appendQuoted(car, to: &quoted)
                return quoted
            }))
            j.add("trips", d.trips)
            j.add("distance_km", d.distanceMeters / 1000, decimals: 3)
            j.add("fuel_l", d.fuelLiters, decimals: 3)
            j.addRaw("owes", json: JSONLine.array(d.owes.map { o in
                var oj = JSONLine()
                oj.add("currency", o.currency)
                oj.add("minor", o.amount)
                oj.add("text", MoneyText.format(MinorUnits(o.amount), minorDigits: o.minorDigits))
                return oj.string
            }))
            if let incomplete { j.addRaw("incomplete", json: incomplete) }
            return j.string
        })
    }

    /// The cars a hub waits for, as `/api/v1/family` and `family --json` give them.
    public static func waitingJSON(_ waiting: [FamilyBooks.Waiting]) -> String {
        JSONLine.array(waiting.map { w in
            var j = JSONLine()
            j.add("car", w.car)
            j.add("vehicle_id", w.vehicle)
            j.add("asked_utc", UTCTimestamp(millisecondsSinceEpoch: w.askedUTCMs).iso8601)
            j.add("note", Self.waitingNote(w))
            return j.string
        })
    }

    /// What a partial book says of a car the hub waits for.
    public static func waitingNote(_ w: FamilyBooks.Waiting) -> String {
        "\(w.car): its records may be incomplete: the hub waits for what it missed (asked at "
            + UTCTimestamp(millisecondsSinceEpoch: w.askedUTCMs).iso8601 + ")"
    }

    /// A table for a terminal.
    public var table: String {
        func pad(_ s: String, _ n: Int) -> String { TerminalText.padded(s, n) }
        var text = pad("driver", 16) + pad("cars", 6) + pad("trips", 7) + pad("km", 10) + pad("fuel L", 9) + "owes\n"
        for d in drivers {
            let owes = d.owes.isEmpty ? "-" : d.owes.map { MoneyText.format(MinorUnits($0.amount), minorDigits: $0.minorDigits) + " " + $0.currency }
                .joined(separator: " + ")
            text += pad(d.name, 16) + pad(String(d.cars.count), 6) + pad(String(d.trips), 7)
                + pad(JSONLine.formatFixed(d.distanceMeters / 1000, decimals: 1), 10) + pad(JSONLine.formatFixed(d.fuelLiters, decimals: 2), 9)
                + owes + "\n"
        }
        text += "cars: " + cars.map(TerminalText.escaped).joined(separator: ", ") + "\n"
        for w in waiting { text += TerminalText.escaped(Self.waitingNote(w)) + "\n" }
        return text
    }
}
