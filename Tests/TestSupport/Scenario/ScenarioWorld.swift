import FairFuelCore
import FairFuelDomain
import FairFuelLink
import FairFuelParsers

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A family, their car and the dongle in it, simulated one second at a time.
///
/// A script drives it (`ScenarioWorld+Script.swift`): people get in and out, tap,
/// turn the ignition, drive routes (`ScenarioWorld+Driving.swift`), refuel. Each
/// second moves the car, burns fuel by the true car model (`WillansCar`), walks
/// people, and, while the dongle is powered, emits what the MCU reports: GNSS
/// epochs with receiver noise, advertisements with radio fading, heartbeats.
/// `truth` records what really happened. Deterministic for a seed.
public struct ScenarioWorld: Sendable {
    struct PersonState: Sendable {
        var inCar = false
        /// Metres from the car while outside.
        var distance = 1_000.0
        /// m/s, positive walking away from the car.
        var walking = 0.0
        var lingerUntilMs: Int64 = 0
        var fobLeftInCar = false
        var nextAdvertMs = 0.0
        var shadow: AR1
        /// Pocket or bag, dB.
        var carryLossDB: Double
    }

    public internal(set) var family: ScenarioFamily
    public let options: ScenarioOptions
    /// The true car (by default the scenarios' one; `TruthCarPopulation` has others).
    public let car: WillansCar
    let radio = RadioModel()
    var random: SeededGenerator

    /// World (link) time, ms.
    public internal(set) var nowMs: Int64 = 0
    /// Events ready in time order; `takeEvents` hands them over.
    public private(set) var events: [ScenarioEvent] = []
    /// Events of the second being built, sorted into `events` as it closes.
    var pending: [ScenarioEvent] = []
    public internal(set) var truth = ScenarioTruth()

    // The car.
    public internal(set) var latitude: Double
    public internal(set) var longitude: Double
    var headingDegrees = 30.0
    public internal(set) var speed = 0.0
    var altitude = 520.0
    var drivetrain = Drivetrain()
    /// FairFuel's model fed the true speeds, when `options.referenceModel` asks for it.
    var reference: FuelEstimator?
    /// The same model without its idle term (and cold start), at the same scale: what of the model's litres is time, not work.
    var referenceWithoutIdle: FuelEstimator?
    public internal(set) var ignition = false
    public internal(set) var tankLiters: Double
    /// When the car came to rest; nil while moving.
    public internal(set) var stoppedSinceMs: Int64? = 0
    public var surroundings: Surroundings = .home

    // Who is where, and whose fuel it is.
    var people: [PersonState]
    public internal(set) var wheel: Person?
    var wheelParty: Party = .untracked
    var openStint: Int?
    var openSession: Int?

    // The dongle.
    public internal(set) var dongleOn = false
    var bootMs: Int64 = 0
    var powerDownAtMs: Int64?
    var poweredDownAtMs: Int64 = -86_400_000
    var crowd = Crowd()
    /// Brown-outs and service restarts scheduled by a script (`ScenarioWorld+RealLife.swift`).
    var lifeEvents = LifeEvents()

    // The GNSS receiver.
    var fixFromMs: Int64 = .max
    var gnssOutage = false
    var urbanCanyon = false
    var errorNorth: AR1
    var errorEast: AR1
    var dropoutEpochs = 0
    let epochPhaseMs: Int64 = 120

    public init(family: ScenarioFamily = .standard, options: ScenarioOptions = ScenarioOptions(), car: WillansCar = WillansCar()) {
        self.family = family
        self.options = options
        self.car = car
        var random = SeededGenerator(seed: options.seed)
        latitude = options.latitude
        longitude = options.longitude
        tankLiters = options.initialTankLiters ?? car.tankLiters - 3
        people = Person.allCases.map { _ in
            PersonState(shadow: AR1(sigma: 2.5, tauSeconds: 4, random: &random), carryLossDB: random.uniform(1...5))
        }
        if options.referenceModel {
            let profile = try! options.referenceProfile ?? VehicleFuelProfile()
            let model = FuelModel(profile: profile)
            reference = FuelEstimator(model: model)
            let workOnly = try! VehicleFuelProfile(
                massKilograms: profile.massKilograms, ratedLitersPer100Kilometers: profile.ratedLitersPer100Kilometers,
                idleLitersPerHour: 0, fuelType: profile.fuelType, roadLoad: profile.roadLoad, coldStartExtra: .zero)
            referenceWithoutIdle = FuelEstimator(model: FuelModel(profile: workOnly, scale: model.referenceCycleScale))
        }
        errorNorth = AR1(sigma: 1.8, tauSeconds: 25, random: &random)
        errorEast = AR1(sigma: 1.8, tauSeconds: 25, random: &random)
        self.random = random
    }

    /// UTC of a world time, ms since 1970.
    public func utcMs(_ worldMs: Int64) -> Int64 { options.startUTCMs + worldMs }

    /// Hands over the events built so far (in time order) and forgets them.
    public mutating func takeEvents() -> [ScenarioEvent] {
        flushPending()
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }

    /// Strangers seen so far (distinct advertisers).
    public var strangersSeen: Int { crowd.spawned }

    /// Records `name` as now (plus `offsetMs`), for expectations.
    public mutating func mark(_ name: String, offsetMs: Int64 = 0) {
        truth.markers[name] = nowMs + offsetMs
    }

    // MARK: One second

    /// Moves the world one second with the car accelerating at `acceleration` (m/s²,
    /// clamped so that it stops rather than reverses); returns the metres driven.
    @discardableResult
    mutating func second(acceleration requested: Double) -> Double {
        let t0 = nowMs
        let v0 = speed
        let a = v0 + requested < 0 ? -v0 : requested
        let v1 = v0 + a
        let meters = (v0 + v1) / 2
        let latitude0 = latitude
        let longitude0 = longitude
        if meters > 0 {
            let heading = headingDegrees * Double.pi / 180
            latitude += meters * cos(heading) / 111_320
            longitude += meters * sin(heading) / (111_320 * cos(latitude * Double.pi / 180))
        }
        if v1 < 0.01 {
            if stoppedSinceMs == nil {
                // Came to rest within this second.
                let fraction = v0 > 0 && a < 0 ? min(1, v0 / -a) : 1
                stoppedSinceMs = t0 + Int64(fraction * 1000)
            }
        } else {
            stoppedSinceMs = nil
        }

        var liters = 0.0
        if drivetrain.engineOn {
            let middle = (v0 + v1) / 2
            if let driver = wheel {
                let style = family[driver].style
                drivetrain.shift(car: car, speed: middle, acceleration: a, upshiftRPM: style.upshiftRPM, downshiftRPM: style.downshiftRPM)
            }
            liters = car.millilitersPerSecond(speed: middle, acceleration: a, gear: drivetrain.gear, coldness: drivetrain.coldness) / 1000
            drivetrain.run(seconds: 1)
        }
        account(liters: liters, meters: meters)
        let atMs = t0 + 1000, engineOn = drivetrain.engineOn
        let modelDelta = Self.feed(&reference, engineOn: engineOn, atMs: atMs, speed: v1)
        if modelDelta > 0 { truth.periods[truth.periods.count - 1].modelLiters[wheelParty, default: 0] += modelDelta }
        let workDelta = Self.feed(&referenceWithoutIdle, engineOn: engineOn, atMs: atMs, speed: v1)
        if workDelta > 0 { truth.periods[truth.periods.count - 1].modelWorkLiters[wheelParty, default: 0] += workDelta }

        for index in people.indices where !people[index].inCar {
            if people[index].lingerUntilMs > t0 { continue }
            people[index].distance = max(0.5, people[index].distance + people[index].walking)
            if people[index].distance > 200 { people[index].walking = 0 }
        }

        if dongleOn && v0 > 0.5 && lifeEvents.isDue(at: t0) { lifeEventsDue(at: t0) }
        if dongleOn {
            emitSecond(at: t0, latitude0: latitude0, longitude0: longitude0, speed0: v0, acceleration: a)
        }
        speed = v1
        nowMs += 1000
        flushPending()
        if let off = powerDownAtMs, !ignition, nowMs >= off {
            dongleOn = false
            powerDownAtMs = nil
            poweredDownAtMs = nowMs
            crowd.removeAll()
        }
        return meters
    }

    /// One second of true speed into a reference estimator (nil: none kept); the litres it added.
    private static func feed(_ estimator: inout FuelEstimator?, engineOn: Bool, atMs: Int64, speed: Double) -> Double {
        guard var model = estimator else { return 0 }
        let before = model.liters.value
        if engineOn { model.add(timeMs: atMs, speed: MetersPerSecond(speed)) } else { model.pause() }
        estimator = model
        return model.liters.value - before
    }

    private mutating func account(liters: Double, meters: Double) {
        tankLiters -= liters
        guard liters > 0 || meters > 0 else { return }
        let party = wheelParty
        truth.periods[truth.periods.count - 1].liters[party, default: 0] += liters
        truth.periods[truth.periods.count - 1].meters[party, default: 0] += meters
        if options.recordMovements && meters > 0 {
            truth.movements.append(ScenarioTruth.Movement(timeMs: nowMs, meters: meters, driver: wheel, party: party))
        }
        if let stint = openStint {
            truth.stints[stint].liters += liters
            truth.stints[stint].meters += meters
        }
    }

    mutating func emit(_ signal: ScenarioSignal, at timeMs: Int64) {
        if lifeEvents.silences(timeMs) { return }  // the MCU is browned out
        let uptime = UInt32(truncatingIfNeeded: 1_500 + max(0, timeMs - bootMs))
        pending.append(ScenarioEvent(timeMs: timeMs, mcuUptimeMs: uptime, signal: signal))
    }

    mutating func flushPending() {
        guard !pending.isEmpty else { return }
        // Stable: events at the same millisecond keep the order they were made in.
        let sorted = pending.enumerated().sorted { ($0.element.timeMs, $0.offset) < ($1.element.timeMs, $1.offset) }
        events.append(contentsOf: sorted.map(\.element))
        pending.removeAll(keepingCapacity: true)
    }

    private mutating func emitSecond(at t0: Int64, latitude0: Double, longitude0: Double, speed0: Double, acceleration: Double) {
        let supply: UInt16 = ignition ? UInt16(14_050 + random.integer(0...120)) : UInt16(12_480 + random.integer(0...60))
        emit(.heartbeat(ignitionOn: ignition, supplyMillivolts: supply), at: t0 + 950)
        emitEpochs(at: t0, latitude0: latitude0, longitude0: longitude0, speed0: speed0, acceleration: acceleration)
        emitFobs(at: t0)
        var heard: [(Int64, Advert)] = []
        crowd.second(
            at: t0, surroundings: surroundings, scale: options.crowd, random: &random, radio: radio,
            emit: { heard.append(($0, $1)) })
        for (time, advert) in heard { emit(.advertisement(advert), at: time) }
    }

    private mutating func emitFobs(at t0: Int64) {
        for person in Person.allCases {
            guard let fob = family[person].fob else { continue }
            var state = people[person.rawValue]
            let inside = state.inCar || state.fobLeftInCar
            let distance = inside ? 0.8 : state.distance
            let shadow = state.shadow.step(1, random: &random)
            if !inside && distance > 120 {
                state.nextAdvertMs = max(state.nextAdvertMs, Double(t0 + 1000))
                people[person.rawValue] = state
                continue
            }
            while state.nextAdvertMs < Double(t0 + 1000) {
                let at = state.nextAdvertMs
                state.nextAdvertMs += fob.intervalMs + random.uniform(0...10)
                guard at >= Double(t0), !random.chance(fob.missedFraction) else { continue }
                let rssi = radio.rssi(
                    inside: inside, distance: distance,
                    extraLossDB: fob.weakenedByDB + (state.fobLeftInCar ? 0 : state.carryLossDB), shadowDB: shadow,
                    random: &random)
                guard let heard = RadioModel.reported(rssi) else { continue }
                emit(.advertisement(Advert(
                    address: fob.address, addressType: .random, advertisingType: .nonConnectableUndirected,
                    rssiDBm: heard, data: fob.advertisingData)), at: Int64(at))
            }
            people[person.rawValue] = state
        }
    }

    private mutating func emitEpochs(at t0: Int64, latitude0: Double, longitude0: Double, speed0: Double, acceleration: Double) {
        let rate = max(1, options.nmeaRateHz)
        let periodMs = Int64(1000 / rate)
        for k in 0..<Int64(rate) {
            let offset = (epochPhaseMs + k * periodMs) % 1000
            let at = t0 + offset
            let fraction = Double(offset) / 1000
            let seconds = 1 / Double(rate)
            errorNorth.step(seconds, random: &random)
            errorEast.step(seconds, random: &random)
            if options.gnssNoise {
                if dropoutEpochs > 0 {
                    dropoutEpochs -= 1
                    continue
                }
                if random.chance(0.002 / Double(rate)) {
                    dropoutEpochs = random.integer(0...2) * rate
                    continue
                }
            }
            var epoch = ReceiverEpoch(utcMs: utcMs(at), valid: false)
            if at >= fixFromMs && !gnssOutage {
                let trueSpeed = max(0, speed0 + acceleration * fraction)
                var north = 0.0
                var east = 0.0
                var speedNoise = 0.0
                var hdop = 0.9
                var courseNoise = 0.0
                if options.gnssNoise {
                    let scale = urbanCanyon ? 1.8 : 1.0
                    north = errorNorth.value * scale
                    east = errorEast.value * scale
                    speedNoise = random.gaussian() * (urbanCanyon ? 0.25 : 0.15)
                    hdop = (urbanCanyon ? 1.7 : 0.8) + 0.4 * random.unit()
                    courseNoise = random.gaussian() * (trueSpeed < 2 ? 40 : 2)
                    if random.chance(0.000_25 / Double(rate)) {
                        // Multipath: one epoch hundreds of metres off.
                        north += random.uniform(150...400) * (random.chance(0.5) ? 1 : -1)
                    }
                    if random.chance(0.000_3 / Double(rate)) { hdop = random.uniform(6...9) }
                }
                let trueLatitude = latitude0 + (latitude - latitude0) * fraction
                let trueLongitude = longitude0 + (longitude - longitude0) * fraction
                epoch.valid = true
                epoch.latitude = trueLatitude + north / 111_320
                epoch.longitude = trueLongitude + east / (111_320 * cos(trueLatitude * Double.pi / 180))
                epoch.altitudeMeters = altitude + north * 0.5
                epoch.speedMetersPerSecond = abs(trueSpeed + speedNoise)
                var course = (headingDegrees + courseNoise).truncatingRemainder(dividingBy: 360)
                if course < 0 { course += 360 }
                epoch.courseDegrees = course
                epoch.hdop = hdop
                epoch.satellites = urbanCanyon ? random.integer(5...8) : random.integer(8...12)
            }
            emit(.epoch(epoch), at: at)
        }
    }
}
