import ArgumentParser
import FairFuelCore
import FairFuelDomain
import FairFuelEdges
import FairFuelStore

/// `fairfuel fleet-sim`: what N cars' uplinks would publish over D days, in the real payloads.
///
/// Each simulated car is a real store (`DIR/car-N.db`) with an `[uplink]` outbox: its trips and
/// refuels are recorded through the store's own operations, which queue the very messages a car
/// queues (trips, refuels, splits); then every car's backlog is published, car after car, as a
/// car back from days without network publishes it, at `--publish-per-s` in all. Deterministic:
/// the same arguments make the same messages. A car's days are one transaction, synced at
/// checkpoints only (a car syncs each trip as it happens; a simulation has no power to lose, and a
/// month of a thousand cars would otherwise wait on a million syncs), and `--jobs` cars are made at once.
struct FleetSimCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet-sim",
        abstract: "Publish what N cars' uplinks would publish over D days (trips, refuels, splits) to an MQTT broker.")

    @Option(help: "How many cars (1 to 10000).")
    var cars: Int
    @Option(help: "How many days each car drives (1 to 366).")
    var days: Int
    @OptionGroup var connection: HubConnectionOptions
    @Option(help: "Where the cars' stores are made (default: a new directory under /tmp).")
    var dir: String?
    @Option(name: .customLong("publish-per-s"), help: "Messages a second, all cars together (1 to 100000).")
    var publishPerSecond = 1_000
    @Flag(name: .customLong("no-publish"), help: "Only make the cars' stores (a load run then publishes them, timed).")
    var noPublish = false
    @Option(help: "How many cars are made at once, each on a thread of its own (1 to 64).")
    var jobs = 4

    func validate() throws {
        guard (1...10_000).contains(cars) else { throw ValidationError("--cars must be 1 to 10000") }
        guard (1...366).contains(days) else { throw ValidationError("--days must be 1 to 366") }
        guard (1...100_000).contains(publishPerSecond) else { throw ValidationError("--publish-per-s must be 1 to 100000") }
        guard (1...64).contains(jobs) else { throw ValidationError("--jobs must be 1 to 64") }
    }

    /// 2026-11-01T00:00Z: the first simulated day.
    static let firstDayUTCMs: Int64 = 1_793_491_200_000
    static let dayMs: Int64 = 86_400_000

    func run() throws {
        let directory: String
        do {
            if let dir { try FileOperations.makeDirectory(dir) }
            directory = try dir ?? FileOperations.makeUniqueDirectory(prefix: "/tmp/fairfuel-fleet-sim-")
        } catch {
            throw UserFacingError("fleet-sim: \(error)")
        }
        let (cars, days, jobs, prefix) = (cars, days, jobs, connection.prefix)
        // Each car alone on one thread: its own store, its own connection; the cars' order does not matter.
        let workers = (0..<min(jobs, cars)).map { worker in
            BlockingThread<String?> {
                for car in stride(from: worker, to: cars, by: jobs) {
                    do { _ = try Self.open(directory: directory, car: car, days: days, prefix: prefix) } catch { return "car \(car): \(error)" }
                }
                return nil
            }
        }
        if let problem = workers.compactMap({ $0.join() }).first { throw UserFacingError("fleet-sim: \(problem)") }
        var stores: [TripStore] = []
        var queued = 0
        for car in 0..<cars {
            do {
                let store = try Self.open(directory: directory, car: car, days: days, prefix: prefix)
                queued += try store.outboxStatistics().pendingMessages
                stores.append(store)
            } catch {
                throw UserFacingError("fleet-sim: car \(car): \(error)")
            }
        }
        printError("fleet-sim: \(cars) car(s), \(days) day(s): \(queued) message(s) in \(directory)" + (noPublish ? "" : "; publishing at \(publishPerSecond)/s"))
        if noPublish { return }
        let sent = try FleetSimPublisher(connection: connection, publishPerSecond: publishPerSecond).publish(stores)
        print("fleet-sim: \(sent) message(s) published and acknowledged (\(cars) car(s), \(days) day(s))")
    }

    /// Car `car`'s store in `directory` with its outbox, its days driven when it is new.
    static func open(directory: String, car: Int, days: Int, prefix: String) throws -> TripStore {
        // Synced at checkpoints, not at every commit: a simulation has no power to lose.
        let store = try TripStore(path: "\(directory)/car-\(car).db", configuration: StoreConfiguration(durability: .syncAtCheckpoints))
        store.uplink = OutboxUplink(topicPrefix: prefix, budget: OutboxBudget(maximumMessages: 10_000_000, maximumBytes: 1 << 34))
        if try store.outboxStatistics().pendingMessages == 0 && store.refuels().isEmpty {
            try store.write { try drive(store, car: car, days: days) }
        }
        return store
    }

    /// A car's days: 1 to 3 trips a day between its two drivers, a full refuel every fourth day.
    static func drive(_ store: TripStore, car: Int, days: Int) throws {
        let drivers = [try store.addDriver(name: "Driver \(car)a", tags: [], beacons: []), try store.addDriver(name: "Driver \(car)b", tags: [], beacons: [])]
        let names = ["Driver \(car)a", "Driver \(car)b"]
        let tank = try store.vehicle().tankLiters
        try store.addRefuel(RefuelInput(atUTCMs: firstDayUTCMs, liters: tank * 0.8, cost: MinorUnits(Int64(tank * 0.8 * 180))))
        var litersSinceRefuel = 0.0
        for day in 0..<days {
            let dayStart = firstDayUTCMs + Int64(day) * dayMs
            for trip in 0..<(1 + (car + day) % 3) {
                let meters = Double(5_000 + ((car * 7 + day * 13 + trip * 5) % 35) * 1_000)
                let liters = meters / 1_000 * 0.065
                let startMs = dayStart + Int64(7 + trip * 5) * 3_600_000 + Int64((car * 37) % 3_000) * 1_000
                try session(store, driver: drivers[(car + trip) % 2], name: names[(car + trip) % 2], startMs: startMs, meters: meters, liters: liters)
                litersSinceRefuel += liters
            }
            if day % 4 == 3 {
                let liters = min(tank, max(1, litersSinceRefuel))
                try store.addRefuel(RefuelInput(atUTCMs: dayStart + 22 * 3_600_000, liters: liters, cost: MinorUnits(Int64(liters * 180))))
                litersSinceRefuel = 0
            }
        }
    }

    /// A closed trip of `meters` at 15 m/s burning `liters` evenly, a point a minute.
    static func session(_ store: TripStore, driver: DriverID, name: String, startMs: Int64, meters: Double, liters: Double) throws {
        let durationMs = Int64(meters / 15 * 1_000)
        let run = try store.beginRun(note: "fleet-sim")
        let id = try store.openSession(driver: driver, driverName: name, run: run, startLinkMs: 0, startUTCMs: startMs)
        let points = stride(from: Int64(0), through: durationMs, by: 60_000).map { offset in
            let fraction = Double(offset) / Double(max(1, durationMs))
            return StoredTripPoint(
                session: id, utcMs: startMs + offset, latitude: 48, longitude: 11, speedMetersPerSecond: 15,
                distanceMeters: fraction * meters, fuelLiters: fraction * liters)
        }
        try store.appendTripPoints(points)
        var metrics = TripMetrics()
        metrics.fuel = Liters(liters)
        metrics.distance = Meters(meters)
        let record = SessionRecord(
            driver: driver, startedAt: LinkMilliseconds(0), endedAt: LinkMilliseconds(durationMs), reason: .departed, stoppedAt: nil,
            driverLeftAt: nil, metrics: metrics)
        try store.closeSession(id, record: record) { startMs + $0.value }
    }
}

private func printError(_ line: String) { StandardErrorLog.write(Array((line + "\n").utf8)) }
