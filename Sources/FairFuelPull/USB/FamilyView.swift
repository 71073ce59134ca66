import FairFuelCore
import FairFuelStore

/// The pulls of several dongles combined into one line per driver: distance, fuel, and what
/// each owes across all cars (per currency, since cars may keep their books in different ones).
///
/// Drivers are the same person when their driver URI uuid matches, otherwise when their
/// names match ignoring case. Cars are told apart by the vehicle's unique id.
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

    /// Reads each pull directory's state (`.fairfuel-pull/`); a directory without one is an error.
    public static func load(directories: [String]) throws(PullClientError) -> FamilyView {
        var view = FamilyView(cars: [], drivers: [])
        var index: [String: Int] = [:]
        // Cars are told apart by the vehicle's unique id, never by name: the same car twice is refused
        // (its trips would count twice), and two cars of one name are labelled with their ids.
        var vehicles: [PulledRecords.Vehicle] = []
        var seen: [String: String] = [:]
        for directory in directories {
            let state = directory + "/" + PullDownload.stateDirectoryName
            guard let vehicleText = try PullFiles.read(state + "/vehicle.tsv") else {
                throw .file("\(directory) holds no pull (no \(PullDownload.stateDirectoryName)/vehicle.tsv); run fairfuel pull --out \(directory) first")
            }
            let vehicle = try PulledRecords.lines(vehicleText).first.map { f throws(PullClientError) in try PulledRecords.vehicle(f) }
                ?? PulledRecords.Vehicle(name: directory, currency: "EUR", minorDigits: 2, units: "metric")
            if let uid = vehicle.uid {
                if let other = seen[uid] {
                    throw .file("\(directory) and \(other) hold the same car (vehicle id \(uid), '\(vehicle.name)'); give each car once")
                }
                seen[uid] = directory
            }
            vehicles.append(vehicle)
        }
        for (directory, vehicle) in zip(directories, vehicles) {
            let state = directory + "/" + PullDownload.stateDirectoryName
            let namesake = vehicles.filter { $0.name.lowercased() == vehicle.name.lowercased() }.count > 1
            let car = namesake ? "\(vehicle.name) (\(vehicle.uid.map { String($0.prefix(8)) } ?? directory))" : vehicle.name
            view.cars.append(car)
            var uuidOf: [Int64: String] = [:]
            for f in PulledRecords.lines(try PullFiles.read(state + "/drivers.tsv")) where f.count >= 3 {
                if let id = Int64(f[0]), !f[2].isEmpty { uuidOf[id] = f[2].lowercased() }
            }
            func slot(_ name: String, _ driverID: Int64?) -> Int {
                let uuid = driverID.flatMap { uuidOf[$0] }
                let shown = name.isEmpty ? "(untracked)" : name
                let nameKey = "name:" + shown.lowercased()
                if let uuid, let found = index["uuid:" + uuid] { index[nameKey] = index[nameKey] ?? found; return found }
                if let found = index[nameKey] {
                    if let uuid {
                        if view.drivers[found].uuid == nil { view.drivers[found].uuid = uuid }
                        index["uuid:" + uuid] = found
                    }
                    return found
                }
                view.drivers.append(Driver(name: shown, uuid: uuid, cars: [], trips: 0, distanceMeters: 0, fuelLiters: 0, owes: []))
                let new = view.drivers.count - 1
                index[nameKey] = new
                if let uuid { index["uuid:" + uuid] = new }
                return new
            }
            func noteCar(_ i: Int) { if !view.drivers[i].cars.contains(car) { view.drivers[i].cars.append(car) } }
            for f in PulledRecords.lines(try PullFiles.read(state + "/trips.tsv")) {
                let trip = try PulledRecords.trip(f)
                let i = slot(trip.driverID == nil ? "" : trip.driverName, trip.driverID)
                noteCar(i)
                view.drivers[i].trips += 1
                view.drivers[i].distanceMeters += trip.distanceMeters
                view.drivers[i].fuelLiters += trip.fuelLiters
            }
            for f in PulledRecords.lines(try PullFiles.read(state + "/splits.tsv")) {
                let share = try PulledRecords.share(f)
                let i = slot(share.beforeTracking ? "(before tracking)" : share.driverName, share.beforeTracking ? nil : share.driverID)
                noteCar(i)
                // A bill keeps its own currency; a pull from an older dongle has the car's.
                let currency = share.currency ?? vehicle.currency
                let digits = share.currency.flatMap(VehicleProfile.minorDigits(ofCurrency:)) ?? vehicle.minorDigits
                if let k = view.drivers[i].owes.firstIndex(where: { $0.currency == currency }) {
                    view.drivers[i].owes[k].amount += share.shareMinor
                } else {
                    view.drivers[i].owes.append((currency, digits, share.shareMinor))
                }
            }
        }
        return view
    }

    /// One JSON object per driver, in an array.
    public var json: String {
        JSONLine.array(drivers.map { d in
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
            return j.string
        })
    }

    /// A table for a terminal.
    public var table: String {
        func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s + " " : s + String(repeating: " ", count: n - s.count) }
        var text = pad("driver", 16) + pad("cars", 6) + pad("trips", 7) + pad("km", 10) + pad("fuel L", 9) + "owes\n"
        for d in drivers {
            let owes = d.owes.isEmpty ? "-" : d.owes.map { MoneyText.format(MinorUnits($0.amount), minorDigits: $0.minorDigits) + " " + $0.currency }
                .joined(separator: " + ")
            text += pad(d.name, 16) + pad(String(d.cars.count), 6) + pad(String(d.trips), 7)
                + pad(JSONLine.formatFixed(d.distanceMeters / 1000, decimals: 1), 10) + pad(JSONLine.formatFixed(d.fuelLiters, decimals: 2), 9)
                + owes + "\n"
        }
        return text + "cars: " + cars.joined(separator: ", ") + "\n"
    }
}
