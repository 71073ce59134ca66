import FairFuelCore
import FairFuelLink
import FairFuelParsers

/// Works a scenario out into a `SimPlan`: routes, who is how far from the car when, and
/// the discrete events. Deterministic for a scenario (its seed included).
public enum SimPlanner {
    /// Plans `scenario`; `readFile` reads NMEA logs (paths already resolved against the scenario's
    /// directory): the planner reads no file itself (`FairFuelSimulationRunner` passes the edges'
    /// reader, tests their own).
    public static func plan(
        _ scenario: SimScenario,
        readFile: (String) -> Result<[UInt8], SimFileReadError>
    ) throws(SimScenarioError) -> SimPlan {
        var builder = PlanBuilder(scenario: scenario)
        try builder.build(readFile: readFile)
        return builder.finish()
    }
}

/// Walking speed of people near the car, m/s.
let walkingSpeed = 1.3
/// Distance at which a walking person is out of the scanner's range for good.
let farMeters = 45.0

struct PersonCursor {
    var time: Int64
    var distance: Double
    var inside: Bool
}

struct Stay {
    var from: Int64
    var to: Int64?
    var place: String?
}

struct PlanBuilder {
    let scenario: SimScenario
    var random: SplitMix
    let terrain: Terrain
    var tags: [SimTagPlan] = []
    var driverTag: [String: Int] = [:]
    var actions: [PlannedAction] = []
    var drives: [DriveTrack] = []
    var segments: [String: [PresenceSegment]] = [:]
    var cursors: [String: PersonCursor] = [:]
    var placeChanges: [String: [(time: Int64, place: String?)]] = [:]
    var stays: [Stay] = []
    var carPlace: String?
    var carPosition: GeoPoint
    let startPosition: GeoPoint
    var ignitionChanges: [(time: Int64, on: Bool)] = []
    var strangers: [AdvertiserPlan] = []
    var trips: [SimTripSummary] = []
    var refuels: [SimRefuel] = []
    var lastTrip: (doorMs: Int64, line: Int)?
    var latestMs: Int64 = 0
    var endMs: Int64?

    init(scenario: SimScenario) {
        self.scenario = scenario
        random = SplitMix(seed: scenario.seed &* 0x2545_F491_4F6C_DD1D &+ 17)
        switch scenario.vehicleStart {
        case .position(let point):
            startPosition = point
        case .place(let name):
            startPosition = scenario.place(named: name)?.position ?? GeoPoint(latitude: 0, longitude: 0)
            carPlace = scenario.place(named: name)?.name
        }
        carPosition = startPosition
        terrain = Terrain(plane: LocalPlane(origin: startPosition), baseMeters: scenario.altitudeMeters)
        stays = [Stay(from: 0, to: nil, place: carPlace)]
        for driver in scenario.drivers { placeChanges[driver.name] = [(0, carPlace)] }
    }

    func error(_ line: Int, _ message: String) -> SimScenarioError {
        SimScenarioError(sourceName: scenario.sourceName, line: line, message: message)
    }

    mutating func build(readFile: (String) -> Result<[UInt8], SimFileReadError>) throws(SimScenarioError) {
        for driver in scenario.drivers where driver.tag != nil {
            driverTag[driver.name] = addTag(driverTagPlan(driver))
        }
        for entry in scenario.timeline {
            latestMs = max(latestMs, entry.timeMs)
            switch entry.action {
            case .trip(let trip):
                try planTrip(trip, at: entry.timeMs, index: trips.count, readFile: readFile)
            case .tapDriver(let name):
                guard let tag = driverTag[name] else { throw error(entry.line, "driver '\(name)' has no tag") }
                act(entry.timeMs, .present(tag: tag))
            case .tapTag(let kind, let uid):
                act(entry.timeMs, .present(tag: tag(kind: kind, uid: uid, label: "a \(kind.rawValue)", readOnly: kind == .bankCard)))
            case .presentBlank(let kind, let uid, let readOnly):
                act(entry.timeMs, .present(tag: tag(kind: kind, uid: uid, label: "a blank \(kind.rawValue)", readOnly: readOnly)))
            case .ignition(let on):
                act(entry.timeMs, .ignition(on))
                ignitionChanges.append((entry.timeMs, on))
            case .reboot: act(entry.timeMs, .reboot)
            case .unplug(let duration):
                act(entry.timeMs, .unplug(durationMs: duration))
                latestMs = max(latestMs, entry.timeMs + duration)
            case .noise(let settings): act(entry.timeMs, .noise(settings))
            case .garbageBurst(let bytes): act(entry.timeMs, .garbage(bytes: bytes))
            case .strangers(let kind, let count, let duration, let range):
                for index in 0..<count {
                    let start = entry.timeMs + Int64(index) * 1500
                    let distance = range * random.uniform(0.75, 1.3)
                    addStranger(kind, label: "\(kind.rawValue) (line \(entry.line))", segments: [
                        PresenceSegment(startMs: start, endMs: entry.timeMs + duration, fromMeters: distance, toMeters: distance, inside: false)
                    ])
                }
                latestMs = max(latestMs, entry.timeMs + duration)
            case .near(let name, let duration, let range):
                append(name, PresenceSegment(startMs: entry.timeMs, endMs: entry.timeMs + duration, fromMeters: range, toMeters: range, inside: false))
                latestMs = max(latestMs, entry.timeMs + duration)
            case .log(let level, let text): act(entry.timeMs, .log(level, text))
            case .end:
                act(entry.timeMs, .end)
                endMs = entry.timeMs
            }
        }
    }

    // MARK: trips

    mutating func planTrip(
        _ trip: SimTrip, at time: Int64, index: Int, readFile: (String) -> Result<[UInt8], SimFileReadError>
    ) throws(SimScenarioError) {
        let approachStart = max(0, time - trip.approachMs)
        if let last = lastTrip, approachStart < last.doorMs {
            throw error(trip.line, "this trip starts (with the walk to the car) at \(localText(approachStart)), before the trip of line \(last.line) is over at \(localText(last.doorMs))")
        }
        var driver = trip.driver
        var inCar: [String] = (driver.map { [$0] } ?? []) + trip.passengers

        // The drive itself.
        let moveOff = time + 20_000
        var track: DriveTrack
        var destination: String?
        switch trip.route {
        case .generated(let kind, let length, let destinationName):
            destination = destinationName ?? carPlace
            let target = destinationName.flatMap { scenario.place(named: $0)?.position }
            track = RouteGenerator.generate(RouteGenerator.Request(
                kind: kind, start: carPosition, destination: target, lengthMeters: target == nil ? (length ?? 2000) : nil,
                stops: trip.stops.map { ($0.atMeters, $0.durationMs) }, terrain: terrain,
                seed: scenario.seed &+ UInt64(index + 1) &* 0x9E37_79B9))
        case .nmeaLog(let path, let destinationName):
            destination = destinationName
            let resolved = path.hasPrefix("/") ? path : scenario.baseDirectory + "/" + path
            let bytes: [UInt8]
            switch readFile(resolved) {
            case .success(let read): bytes = read
            case .failure(let failure): throw error(trip.line, "NMEA log: \(failure)")
            }
            do {
                track = try NMEALogRoute.track(fromLog: bytes, terrain: terrain)
            } catch {
                throw self.error(trip.line, "NMEA log \(path) has fewer than two valid fixes")
            }
        }
        track.place(at: moveOff)
        let arrival = track.endMs

        // Walk to the car, get in, tap, ignition.
        for (position, person) in inCar.enumerated() {
            let from = restRange(of: person, at: approachStart) ?? 25
            cursors[person] = PersonCursor(time: approachStart, distance: from, inside: false)
            move(person, to: 1.2, inside: false, until: time)
            set(person, distance: position == 0 && driver != nil ? 0.8 : 1.3, inside: true)
        }
        if case .atStart = trip.tap, let driver, let tag = driverTag[driver] { act(time + 6000, .present(tag: tag)) }
        if case .late(let delay) = trip.tap, let driver, let tag = driverTag[driver] {
            act(min(moveOff + delay, arrival - 1000), .present(tag: tag))
        }
        act(time, .note("trip (line \(trip.line)): \(driver ?? "nobody") walks to the car" + (trip.passengers.isEmpty ? "" : " with \(trip.passengers.joined(separator: ", "))")))
        ignition(time + 12_000, on: true)
        act(moveOff, .note("moving off"))
        closeStay(at: moveOff)

        var drivers = driver.map { [$0] } ?? []
        var passengers = trip.passengers
        for stop in track.stops {
            guard let scripted = stop.scriptedIndex else { continue }
            let kind = trip.stops[scripted].kind
            let (s0, s1) = (stop.startMs, stop.endMs)
            let d = s1 - s0
            for person in inCar { hold(person, until: s0) }
            switch kind {
            case .light, .wait:
                break
            case .park:
                ignition(s0 + 4000, on: false)
                for person in inCar { awayAndBack(person, from: s0 + 8000, to: s1 - 8000, farthest: farMeters) }
                ignition(s1 - 5000, on: true)
            case .fuel(let liters, let cost):
                ignition(s0 + 4000, on: false)
                let pumpEnd = s0 + d * 55 / 100
                if let driver {
                    hold(driver, until: s0 + 8000)
                    move(driver, to: 1.5, inside: false, over: 2000)
                    hold(driver, until: pumpEnd)
                    awayAndBack(driver, from: pumpEnd, to: s1 - 12_000, farthest: 25, startingAt: 1.5)
                    set(driver, distance: 0.8, inside: true)
                }
                refuels.append(SimRefuel(
                    line: trip.stops[scripted].line, timeMs: pumpEnd, utc: utc(pumpEnd), driver: driver,
                    liters: liters.map(Liters.init), cost: cost.map(MinorUnits.init)))
                act(pumpEnd, .note("refuel" + (liters.map { " \($0) L" } ?? "") + (cost.map { " cost " + MoneyText.format(MinorUnits($0)) } ?? "")))
                ignition(s1 - 6000, on: true)
            case .swap(let next):
                ignition(s0 + 4000, on: false)
                for person in [driver, next].compactMap({ $0 }) {
                    hold(person, until: s0 + 8000)
                    move(person, to: 2, inside: false, over: 3000)
                    hold(person, until: s1 - 15_000)
                    move(person, to: 1.2, inside: false, over: 3000)
                    set(person, distance: person == next ? 0.8 : 1.3, inside: true)
                }
                if let tag = driverTag[next] { act(s1 - 9000, .present(tag: tag)) }
                act(s0, .note("driver swap: \(next) takes over"))
                drivers.append(next)
                passengers.removeAll { $0 == next }
                if let old = driver { passengers.append(old) }
                driver = next
                inCar = [next] + inCar.filter { $0 != next }
                ignition(s1 - 5000, on: true)
            case .drop(let person):
                hold(person, until: s0 + 5000)
                move(person, to: 1.5, inside: false, over: 2000)
                walk(person, to: farMeters)
                end(person)
                inCar.removeAll { $0 == person }
                changePlace(person, to: nil, at: s0)
            }
        }

        // Park, ignition off, get out and walk away.
        ignition(arrival + 6000, on: false)
        let door = arrival + 12_000 + trip.stayMs
        let range = destination.flatMap { scenario.place(named: $0)?.rangeMeters }
        for person in inCar {
            hold(person, until: door)
            move(person, to: 1.5, inside: false, over: 2000)
            walk(person, to: range ?? farMeters)
            end(person)
            changePlace(person, to: destination, at: arrival)
        }
        act(arrival, .note("parked" + (destination.map { " at \($0)" } ?? "")))

        drives.append(track)
        carPlace = destination
        carPosition = track.samples[track.samples.count - 1].position
        stays.append(Stay(from: arrival, to: nil, place: destination))
        lastTrip = (door, trip.line)
        latestMs = max(latestMs, door + 40_000)
        let tapped: Bool = {
            if case .never = trip.tap { return false }
            return trip.driver.map { driverTag[$0] != nil } ?? false
        }()
        trips.append(SimTripSummary(
            line: trip.line, drivers: drivers, passengers: passengers, tapped: tapped, startMs: moveOff, endMs: arrival,
            startUTC: utc(moveOff), endUTC: utc(arrival), distanceMeters: track.distanceMeters, destination: destination))
    }

    /// Goes out to `farthest` and comes back between `from` and `to` (a walk to the kiosk, a shop).
    mutating func awayAndBack(_ person: String, from: Int64, to: Int64, farthest: Double, startingAt startDistance: Double = 1.2) {
        hold(person, until: from)
        if cursors[person]?.inside == true { move(person, to: startDistance, inside: false, over: 2000) }
        let available = Double(to - (cursors[person]?.time ?? from)) / 1000
        let reach = min(farthest, max(2, (available / 2 - 5) * walkingSpeed))
        let walkMs = Int64((reach - startDistance) / walkingSpeed * 1000)
        move(person, to: reach, inside: false, over: max(walkMs, 1000))
        hold(person, until: to - max(walkMs, 1000))
        move(person, to: 1.2, inside: false, until: to)
    }

    // MARK: finish

    mutating func finish() -> SimPlan {
        let end = endMs ?? (latestMs + 60_000)
        closeStay(at: end)
        // People at the car's place while it is parked there rest at the place's range.
        for driver in scenario.drivers {
            for stay in stays {
                guard let place = stay.place, let range = scenario.place(named: place)?.rangeMeters,
                    let to = stay.to, to > stay.from
                else { continue }
                var time = stay.from
                while time < to {
                    // The person's place may change inside the stay only at its start (arrivals).
                    guard self.place(of: driver.name, at: max(time, stay.from)) == place else { break }
                    let busy = (segments[driver.name] ?? []).filter { $0.endMs > time && $0.startMs < to }.sorted { $0.startMs < $1.startMs }
                    if let first = busy.first {
                        if first.startMs > time {
                            append(driver.name, PresenceSegment(startMs: time, endMs: first.startMs, fromMeters: range, toMeters: range, inside: false))
                        }
                        time = max(time, first.endMs)
                    } else {
                        append(driver.name, PresenceSegment(startMs: time, endMs: to, fromMeters: range, toMeters: range, inside: false))
                        time = to
                    }
                }
            }
        }
        // Residents near their place while the car is parked there; passers-by.
        for resident in scenario.residentStrangers {
            let residentSegments = stays.compactMap { stay -> PresenceSegment? in
                guard stay.place?.lowercased() == resident.place?.lowercased(), let to = stay.to, to > stay.from else { return nil }
                return PresenceSegment(startMs: stay.from, endMs: to, fromMeters: resident.rangeMeters, toMeters: resident.rangeMeters, inside: false)
            }
            if !residentSegments.isEmpty {
                addStranger(resident.kind, label: resident.name, identity: resident.identity, segments: residentSegments)
            }
        }
        if scenario.ambientDrivingPerMinute > 0 {
            for drive in drives {
                var time = drive.startMs + Int64(random.exponential(mean: 60_000 / scenario.ambientDrivingPerMinute))
                while time < drive.endMs {
                    let duration = Int64(random.uniform(5, 60) * 1000)
                    let distance = random.uniform(3, 15)
                    addStranger(randomStrangerKind(), label: "passing car", segments: [
                        PresenceSegment(startMs: time, endMs: min(time + duration, drive.endMs), fromMeters: distance, toMeters: distance, inside: false)
                    ])
                    time += Int64(random.exponential(mean: 60_000 / scenario.ambientDrivingPerMinute))
                }
            }
        }
        if scenario.ambientParkedPerMinute > 0 {
            for stay in stays {
                guard let to = stay.to else { continue }
                var time = stay.from + Int64(random.exponential(mean: 60_000 / scenario.ambientParkedPerMinute))
                while time < to {
                    let half = Int64(random.uniform(5, 25) * 1000)
                    let closest = random.uniform(2, 12)
                    addStranger(randomStrangerKind(), label: "passer-by", segments: [
                        PresenceSegment(startMs: time, endMs: time + half, fromMeters: 25, toMeters: closest, inside: false),
                        PresenceSegment(startMs: time + half, endMs: time + 2 * half, fromMeters: closest, toMeters: 25, inside: false),
                    ])
                    time += Int64(random.exponential(mean: 60_000 / scenario.ambientParkedPerMinute))
                }
            }
        }

        var advertisers: [AdvertiserPlan] = []
        for driver in scenario.drivers {
            guard let identity = driver.beacon else { continue }
            var list = (segments[driver.name] ?? []).sorted { $0.startMs < $1.startMs }
            var trimmed: [PresenceSegment] = []
            for var segment in list {
                if let last = trimmed.last, segment.startMs < last.endMs { segment.startMs = last.endMs }
                if segment.endMs > segment.startMs { trimmed.append(segment) }
            }
            list = trimmed
            advertisers.append(AdvertiserPlan(
                label: "\(driver.name)'s beacon", source: .fob(driver: driver.name, identity: identity),
                intervalMs: driver.beaconIntervalMs, powerDBm: driver.beaconPowerDBm, segments: list,
                seed: scenario.seed ^ PlanBuilder.fnv1a(driver.name) ^ 0xB1E))
        }
        advertisers += strangers

        // GNSS power: on with the ignition, off a while after it goes off.
        var windows: [(on: Int64, off: Int64)] = []
        if let keepAlive = scenario.gnss.keepAliveMs {
            var onSince: Int64?
            var pendingOff: Int64?
            for change in ignitionChanges.sorted(by: { $0.time < $1.time }) {
                if change.on {
                    if let off = pendingOff, change.time >= off, let on = onSince {
                        windows.append((on, off))
                        onSince = nil
                    }
                    pendingOff = nil
                    if onSince == nil { onSince = change.time }
                } else if onSince != nil, pendingOff == nil {
                    pendingOff = change.time + keepAlive
                }
            }
            if let on = onSince { windows.append((on, min(pendingOff ?? end, end))) }
        } else {
            windows = [(0, end)]
        }

        let sortedActions = actions.enumerated().sorted { ($0.element.timeMs, $0.offset) < ($1.element.timeMs, $1.offset) }.map(\.element)
        return SimPlan(
            scenario: scenario, endMs: end, trips: trips, refuels: refuels, tags: tags, actions: sortedActions,
            drives: drives, parkedStart: startPosition, advertisers: advertisers, gnssWindows: windows, terrain: terrain)
    }
}
