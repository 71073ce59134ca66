import FairFuelCore
import FairFuelEdges
import FairFuelReports
import FairFuelStore

/// Several cars' pulls (USB pull or hub directories) read once: each car's trips and bills, with
/// every driver joined into one person across cars. `family`, and `split`, `summary` and
/// `report --html` over pulls, are all views of it.
///
/// Drivers are the same person when their driver URI uuid matches, otherwise when their names
/// match ignoring case; a person is shown by the first name seen. Cars are told apart by the
/// vehicle's unique id (and the uplink's id, which a hub and newer pulls carry too): the same car
/// twice, two pulls or a pull and a hub's copy, is refused.
public struct FamilyBooks: Sendable {
    public struct Person: Sendable, Equatable {
        /// The first name seen; `(untracked)` and `(before tracking)` are people of their own.
        public var name: String
        public var uuid: String?
    }

    public struct Car: Sendable {
        /// The car's name, with the start of its vehicle id when another car has the same name.
        public var label: String
        /// The vehicle's unique id: the store's, over USB and from a hub (a car that sends it); an older car's
        /// uplink id from a hub; nil from an older dongle.
        public var vehicleID: String?
        public var units: DisplayUnits
        /// Closed trips, oldest id first, each under its person's name (`untracked` for untracked driving).
        public var trips: [TripRow]
        /// The index in `people` of each trip's driver.
        public var tripPeople: [Int]
        /// Bills, oldest id first, each share under its person's name (nil: untracked driving, or before tracking).
        public var splits: [RefuelSplit]
        /// The index in `people` of each bill's shares' parties.
        public var sharePeople: [[Int]]
        /// The car's uplink id (its topic level), lowercased, from a hub or a newer dongle.
        public var uplinkID: String? = nil
    }

    public var people: [Person]
    public var cars: [Car]
    /// The cars whose hub waits for what it missed (`FamilyBooks.Waiting`): their records may be incomplete.
    public var waiting: [Waiting] = []

    /// The car directories `directories` name: a hub's directory stands for every car it received (in the
    /// order of their vehicle ids), any other directory for itself.
    public static func carDirectories(_ directories: [String]) throws(PullClientError) -> [String] {
        var cars: [String] = []
        for directory in directories { cars += try HubCollector.carDirectories(in: directory) ?? [directory] }
        return cars
    }

    /// Reads each pull directory's state (`.fairfuel-pull/`); a directory without one is an error.
    public static func load(directories: [String]) throws(PullClientError) -> FamilyBooks {
        var states: [PulledCarState] = []
        for directory in directories { states.append(try PulledCarState.read(directory: directory)) }
        return try load(states: states)
    }

    /// Joins the cars' states (from directories or a hub's database) into one family's books.
    public static func load(states: [PulledCarState]) throws(PullClientError) -> FamilyBooks {
        var vehicles: [PulledRecords.Vehicle] = []
        var seen: [String: PulledCarState] = [:]
        for car in states {
            guard let vehicleText = car.vehicle else {
                throw .file("\(car.source) holds no pull (no \(PullDownload.stateDirectoryName)/vehicle.tsv); run fairfuel pull --out \(car.source) first")
            }
            let vehicle = try PulledRecords.lines(vehicleText).first.map { f throws(PullClientError) in try PulledRecords.vehicle(f) }
                ?? PulledRecords.Vehicle(name: car.source, currency: "EUR", minorDigits: 2, units: "metric")
            // The same car twice would count its trips and bills twice. A car is known by its store's unique id
            // and, from a hub or a newer dongle, its uplink's id too: one shared id is one car.
            for id in vehicle.identities {
                guard let other = seen[id] else { continue }
                if car.isHubCopy != other.isHubCopy {
                    let (hub, pull) = car.isHubCopy ? (car.source, other.source) : (other.source, car.source)
                    throw .file("\(pull) and \(hub) hold the same car (vehicle id \(id), '\(vehicle.name)'): a USB pull of it and "
                        + "a hub's copy of it, whose bills would count twice; give each car once: the hub's directory or the pull, not both")
                }
                throw .file("\(car.source) and \(other.source) hold the same car (vehicle id \(id), '\(vehicle.name)'); give each car once")
            }
            for id in vehicle.identities { seen[id] = car }
            vehicles.append(vehicle)
        }
        var join = DriverJoin()
        var cars: [Car] = []
        for (state, vehicle) in zip(states, vehicles) {
            let namesake = vehicles.filter { $0.name.lowercased() == vehicle.name.lowercased() }.count > 1
            var units = DisplayUnits(units: vehicle.units, currency: vehicle.currency, currencyMinorDigits: vehicle.minorDigits)
            // A zone this laptop cannot read (no tzdata) shows UTC, as a store's own commands do.
            if let zone = vehicle.timeZone, let rules = try? TimeZoneDatabase.load(zone) { units.timeZone = rules }
            var car = Car(
                label: namesake ? "\(vehicle.name) (\(vehicle.uid.map { String($0.prefix(8)) } ?? state.source))" : vehicle.name,
                vehicleID: vehicle.uid, units: units, trips: [], tripPeople: [], splits: [], sharePeople: [], uplinkID: vehicle.uplinkID)
            var uuidOf: [Int64: String] = [:]
            for f in PulledRecords.lines(state.drivers) where f.count >= 3 {
                if let id = Int64(f[0]), !f[2].isEmpty { uuidOf[id] = f[2].lowercased() }
            }
            for f in PulledRecords.lines(state.trips) {
                var trip = try PulledRecords.trip(f)
                let person = join.person(trip.driverID == nil ? "" : trip.driverName, uuid: trip.driverID.flatMap { uuidOf[$0] })
                trip.driverName = join.people[person].name
                trip.untracked = trip.driverID == nil
                car.trips.append(trip)
                car.tripPeople.append(person)
            }
            for f in PulledRecords.lines(state.splits) {
                let share = try PulledRecords.share(f)
                let person = share.beforeTracking
                    ? join.person("(before tracking)", uuid: nil) : join.person(share.driverName, uuid: share.driverID.flatMap { uuidOf[$0] })
                // A refuel's shares are consecutive lines; a bill keeps its own currency (an older dongle's: the car's).
                if car.splits.last?.id != share.refuelID {
                    car.splits.append(RefuelSplit(id: share.refuelID, refuel: RefuelInput(
                        atUTCMs: share.atUTCMs, liters: share.liters, cost: MinorUnits(share.costMinor), fullTank: share.fullTank,
                        currency: share.currency ?? vehicle.currency), shares: []))
                    car.sharePeople.append([])
                }
                car.splits[car.splits.count - 1].shares.append(RefuelSplit.Share(
                    driver: share.driverID.map(DriverID.init), driverName: share.beforeTracking || share.driverName.isEmpty ? nil : join.people[person].name,
                    fuelLiters: share.shareLiters, cost: MinorUnits(share.shareMinor), beforeTracking: share.beforeTracking))
                car.sharePeople[car.sharePeople.count - 1].append(person)
            }
            cars.append(car)
        }
        return FamilyBooks(people: join.people, cars: cars)
    }

    /// The one place drivers of different cars become one person: by driver URI uuid, else by name ignoring case.
    struct DriverJoin {
        var people: [Person] = []
        private var index: [String: Int] = [:]

        /// The person driving as `name` (empty: untracked driving) with `uuid`, added when new.
        mutating func person(_ name: String, uuid: String?) -> Int {
            let shown = name.isEmpty ? "(untracked)" : name
            let nameKey = "name:" + shown.lowercased()
            if let uuid, let found = index["uuid:" + uuid] { index[nameKey] = index[nameKey] ?? found; return found }
            if let found = index[nameKey] {
                if let uuid {
                    if people[found].uuid == nil { people[found].uuid = uuid }
                    index["uuid:" + uuid] = found
                }
                return found
            }
            people.append(Person(name: shown, uuid: uuid))
            let new = people.count - 1
            index[nameKey] = new
            if let uuid { index["uuid:" + uuid] = new }
            return new
        }
    }
}
