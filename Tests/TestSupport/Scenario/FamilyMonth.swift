import FairFuelCore
import FairFuelDomain

/// Four weeks of the family's driving, one day at a time.
///
/// Weekdays: Ben commutes on the motorway on Mondays, Wednesdays and Fridays (a tunnel
/// on Wednesdays), Ana commutes across town on Tuesdays and Thursdays (stop-and-go,
/// lights) and does an errand on Thursdays with a pick-up where she waits in the car,
/// engine idling; Cleo drives to training and back hard on Thursdays.
/// Saturdays: Ana drives Ben to the hardware store and leaves; Ben stays in the car,
/// then drives home; Cleo takes a suburban trip. Sundays: Ben drives the family on the
/// motorway and Ana takes over at a lay-by (a switch), and back. Below 25 L in the tank
/// the next trip stops for fuel halfway: a full tank, or now and then a partial fill. About one trip in
/// fifteen nobody taps; a visitor's card is tapped now and then; Ana's fob battery dies
/// in the third week and is replaced on day 21. The dongle stays powered 15 minutes
/// after the ignition goes off, then the capture has a gap until the next drive.
///
/// With `RealLife` options (off by default: the month is then exactly as above), the month
/// also holds what real cars see: kiosk queues at fuel stops, parks mid-trip, MCU
/// brown-outs and service restarts while driving.
public struct FamilyMonth {
    public struct Day: Sendable {
        public var index: Int
        /// Events of the day, in time order (link time = world time).
        public var events: [ScenarioEvent]
        public var trips: Int
        /// Service restarts while driving (link time): where a test cuts the day's capture.
        public var restartsMs: [Int64] = []
        /// When the dongle powered up (link time, just before its HELLO): the service starts afresh there too.
        public var powerUpsMs: [Int64] = []
    }

    /// What real cars see, drawn from a generator of its own.
    public struct RealLife: Sendable {
        /// Every fuel stop has a queue at the kiosk: the driver is out of the scanner's range this long.
        public var kioskQueueMinutes: ClosedRange<Double> = 3...12
        /// Chance that a trip (one without a fuel stop) has a park halfway.
        public var parkChance = 0.25
        public var parkMinutes: ClosedRange<Double> = 5...40
        /// Share of parks after which the driver taps again.
        public var retapShare = 0.5
        /// Chance that a trip has an MCU brown-out while moving.
        public var brownOutChance = 0.2
        /// Chance that a trip has service restarts while moving, and how many then.
        public var restartChance = 0.3
        public var restartsPerTrip: ClosedRange<Int> = 1...2
        public var seed: UInt64 = 12

        public init() {}

        /// Restarts only: one in every trip (so that each kill's loss is its own), nothing else.
        public static var restartsOnly: RealLife {
            var life = RealLife()
            life.kioskQueueMinutes = 0...0
            life.parkChance = 0
            life.brownOutChance = 0
            life.restartChance = 1
            life.restartsPerTrip = 1...1
            return life
        }
    }

    public private(set) var world: ScenarioWorld
    public let days: Int
    public private(set) var nextDay = 0
    public private(set) var trips = 0
    private var random: SeededGenerator
    public let realLife: RealLife?
    private var lifeRandom: SeededGenerator
    /// Fuel stops with a kiosk queue, parks mid-trip and those ended without a new tap, so far.
    public private(set) var kioskStops = 0
    public private(set) var parks = 0
    public private(set) var parksWithoutTap = 0
    /// What happened when, for a test to explain its findings: (link time, text).
    public private(set) var lifeLog: [(atMs: Int64, text: String)] = []

    /// With `realLife`, `ScenarioOptions.recordMovements` is turned on. `car`: the true car.
    public init(
        seed: UInt64 = 2026, days: Int = 28, options: ScenarioOptions? = nil, realLife: RealLife? = nil, car: WillansCar = WillansCar()
    ) {
        if days >= 7 { TestTier.require(.replay, .study, for: "a family's \(days) days") }
        var settings = options ?? ScenarioOptions(seed: seed)
        settings.seed = seed
        if realLife != nil { settings.recordMovements = true }
        world = ScenarioWorld(family: .standard, options: settings, car: car)
        self.days = days
        random = SeededGenerator(seed: seed &* 31 &+ 7)
        self.realLife = realLife
        lifeRandom = SeededGenerator(seed: (realLife?.seed ?? 0) &* 0x9E37_79B9 &+ seed)
    }

    public var truth: ScenarioTruth { world.truth }

    /// Scripts the next day and returns its events; nil after the last day.
    public mutating func day() -> Day? {
        guard nextDay < days else { return nil }
        let index = nextDay
        defer {
            for time in world.brownOutsMs where time >= Int64(index) * 86_400_000 { lifeLog.append((time, "MCU brown-out")) }
        }
        nextDay += 1
        let before = trips
        let weekday = index % 7  // 0 is Monday
        if index == 14, let fob = world.family[.ana].fob { world.setFob(.ana, fob.dying) }
        if index == 21 { world.setFob(.ana, ScenarioFamily.standard[.ana].fob) }
        switch weekday {
        case 0, 2, 4:
            commuteByMotorway(day: index, tunnel: weekday == 2)
        case 1, 3:
            commuteAcrossTown(day: index)
            if weekday == 3 {
                errandWithPickUp(day: index)
                training(day: index)
            }
        case 5:
            hardwareStore(day: index)
            cleoSaturday(day: index)
        default:
            familyOuting(day: index)
        }
        return Day(index: index, events: world.takeEvents(), trips: trips - before, restartsMs: world.takeRestarts(),
            powerUpsMs: world.takePowerUps())
    }

    /// The family fills the tank up before the first day: the store's baseline bill (the fuel
    /// before tracking began), so that every later bill covers tracked driving only.
    public mutating func fillUpAtTheStart() {
        precondition(nextDay == 0 && world.nowMs == 0, "the month has begun")
        world.refuel()
    }

    /// The family fills the tank up at home after the last day, so that the driving since the
    /// last fuel stop has a bill too. Call once the days are done.
    public mutating func fillUpAtTheEnd() {
        precondition(nextDay == days && !world.dongleOn, "the month is not over")
        world.refuel()
    }

    // MARK: The days' trips

    private mutating func commuteByMotorway(day: Int, tunnel: Bool) {
        let kilometers = random.uniform(18...24)
        var out = Route.urban(kilometers: 1.5, random: &random) + Route.motorway(kilometers: kilometers, random: &random)
            + Route.urban(kilometers: 1.5, random: &random)
        if tunnel { out = out.withTunnel(meters: 1_400) }
        trip(.ben, day: day, at: hours(7.1, spread: 0.4), route: out, parkAt: .carPark)
        let back = Route.urban(kilometers: 1.5, random: &random) + Route.motorway(kilometers: kilometers, random: &random)
            + Route.urban(kilometers: 1.5, random: &random)
        trip(.ben, day: day, at: hours(17.2, spread: 0.8), route: back, parkAt: .home)
    }

    private mutating func commuteAcrossTown(day: Int) {
        let out = Route.urban(kilometers: random.uniform(5...7), congestion: 0.3, random: &random)
        trip(.ana, day: day, at: hours(7.6, spread: 0.4), route: out, parkAt: .street)
        let back = Route.urban(kilometers: random.uniform(5...7), congestion: 0.3, random: &random)
        trip(.ana, day: day, at: hours(17.5, spread: 0.5), route: back, parkAt: .home)
    }

    private mutating func errandWithPickUp(day: Int) {
        let out = Route.urban(kilometers: random.uniform(2.5...4), congestion: 0.15, random: &random)
        let back = Route.urban(kilometers: random.uniform(2.5...4), congestion: 0.15, random: &random)
        trip(.ana, day: day, at: hours(18.6, spread: 0.2), route: out, parkAt: .street, idleAtEndSeconds: random.integer(300...480), then: back)
    }

    private mutating func training(day: Int) {
        let out = Route.suburban(kilometers: random.uniform(6...9), random: &random) + Route.urban(kilometers: 1.5, random: &random)
        trip(.cleo, day: day, at: hours(19.5, spread: 0.2), route: out, parkAt: .carPark)
        let back = Route.urban(kilometers: 1.5, random: &random) + Route.suburban(kilometers: random.uniform(6...9), random: &random)
        trip(.cleo, day: day, at: hours(21.6, spread: 0.2), route: back, parkAt: .home)
    }

    private mutating func cleoSaturday(day: Int) {
        let out = Route.suburban(kilometers: random.uniform(8...12), random: &random)
        trip(.cleo, day: day, at: hours(15, spread: 0.5), route: out, parkAt: .street)
        let back = Route.suburban(kilometers: random.uniform(8...12), random: &random)
        trip(.cleo, day: day, at: hours(18.5, spread: 0.5), route: back, parkAt: .home)
    }

    /// Ana drives Ben to the store and walks off; Ben waits in the car, then drives home.
    private mutating func hardwareStore(day: Int) {
        let start = hours(10, spread: 0.5)
        world.skip(toMs: dayStart(day) + start)
        world.board(.ben, atWheel: false)
        let route = Route.urban(kilometers: random.uniform(3...5), random: &random)
        beginTrip(.ana)
        world.drive(route)
        world.surroundings = .carPark
        endTrip(leaving: true)
        world.wait(seconds: random.integer(420...560))  // Ben listens to the radio
        world.takeWheel(.ben)
        beginTrip(.ben, boarded: true)
        world.drive(Route.urban(kilometers: random.uniform(3...5), random: &random))
        world.surroundings = .home
        endTrip(leaving: true)
        world.holdUp()
    }

    /// Ben drives the family out on the motorway; at a lay-by Ana takes over (a switch);
    /// Ana drives back.
    private mutating func familyOuting(day: Int) {
        world.skip(toMs: dayStart(day) + hours(9.5, spread: 0.5))
        world.board(.ana, atWheel: false)
        beginTrip(.ben)
        world.drive(Route.urban(kilometers: 2, random: &random) + Route.motorway(kilometers: random.uniform(22...28), random: &random))
        world.wait(seconds: random.integer(10...20))  // engine running at the lay-by
        world.exit(.ben, departing: false)
        world.exit(.ana, departing: false)
        world.wait(seconds: 8)
        world.board(.ben, atWheel: false)
        world.board(.ana)
        world.wait(seconds: 3)
        world.tap(.ana)
        world.wait(seconds: 5)
        world.drive(Route.motorway(kilometers: random.uniform(10...15), random: &random) + Route.urban(kilometers: 2, random: &random))
        world.surroundings = .carPark
        world.exit(.ben, departing: true)
        endTrip(leaving: true)
        world.holdUp()

        world.skip(toMs: world.nowMs + Int64(random.uniform(2.5...3.5) * 3_600_000))
        world.board(.ben, atWheel: false)
        beginTrip(.ana)
        world.drive(Route.urban(kilometers: 2, random: &random) + Route.motorway(kilometers: random.uniform(30...40), random: &random)
            + Route.urban(kilometers: 2, random: &random))
        world.surroundings = .home
        world.exit(.ben, departing: true)
        endTrip(leaving: true)
        world.holdUp()
    }

    // MARK: One trip

    /// A whole trip: from home (or wherever the car is) at `at` after the day's start,
    /// with a fuel stop halfway when the tank is low, an optional wait with the engine
    /// running at the end and a return leg.
    private mutating func trip(
        _ driver: Person, day: Int, at: Int64, route: Route, parkAt: Surroundings, idleAtEndSeconds: Int = 0,
        then back: Route? = nil
    ) {
        world.skip(toMs: max(world.nowMs, dayStart(day) + at))
        beginTrip(driver)
        if let life = realLife, world.tankLiters >= 25, route.legs.count >= 4, lifeRandom.chance(life.parkChance) {
            driveWithPark(route, life: life)
        } else {
            driveWithFuelStop(route)
        }
        if idleAtEndSeconds > 0, let back {
            world.surroundings = .street
            world.wait(seconds: idleAtEndSeconds)  // waiting for someone, engine on, driver inside
            world.drive(back)
        }
        world.surroundings = parkAt
        endTrip(leaving: true)
        world.holdUp()
    }

    private mutating func driveWithFuelStop(_ route: Route) {
        guard world.tankLiters < 25, route.legs.count >= 4 else {
            world.drive(route)
            return
        }
        let half = route.legs.count / 2
        var first = Route(legs: Array(route.legs[..<half]))
        first.legs[first.legs.count - 1].end = .destination
        world.drive(first)
        // Now and then only what cash allows at a cheap station.
        let partial = random.chance(0.3) ? Double(random.integer(15...20)) : nil
        if let life = realLife, life.kioskQueueMinutes.upperBound > 0, let driver = world.wheel {
            let queue = Int(lifeRandom.uniform(life.kioskQueueMinutes) * 60)
            lifeLog.append((world.nowMs, "\(driver) stops for fuel, \(queue / 60) min at the kiosk"))
            world.fuelStopWithQueue(queueSeconds: queue, partialLiters: partial, keepsParty: hasFob(driver))
            kioskStops += 1
        } else {
            world.fuelStop(partialLiters: partial)
        }
        world.drive(Route(legs: Array(route.legs[half...])))
    }

    /// Drives half of `route`, parks for a while (everybody leaves), comes back and drives on.
    private mutating func driveWithPark(_ route: Route, life: RealLife) {
        let half = route.legs.count / 2
        var first = Route(legs: Array(route.legs[..<half]))
        first.legs[first.legs.count - 1].end = .destination
        world.drive(first)
        guard let driver = world.wheel else { return }
        let retap = lifeRandom.chance(life.retapShare)
        parks += 1
        if !retap { parksWithoutTap += 1 }
        let minutes = lifeRandom.uniform(life.parkMinutes)
        lifeLog.append((world.nowMs, "\(driver) parks \(Int(minutes)) min, " + (retap ? "taps again" : "no new tap")))
        world.parkMidTrip(minutes: minutes, retap: retap, keepsParty: hasFob(driver))
        scheduleLifeEvents(life)
        world.drive(Route(legs: Array(route.legs[half...])))
    }

    /// Whether the car's last drive (`last`) was `person`'s, counted as theirs, and the car has
    /// stood since for short enough for a drive on without a tap to be theirs too (with their fob aboard).
    private func continuesTheLastDrive(_ last: ScenarioTruth.Stint?, _ person: Person) -> Bool {
        guard hasFob(person), let last, let stoodSince = world.stoppedSinceMs else { return false }
        return last.driver == person && last.party == .driver(person)
            && world.nowMs - stoodSince <= ContinuityThresholds().newTripMaxStopMs
    }

    /// Whether `person` carries a fob the service can hear (a dying one counts).
    private func hasFob(_ person: Person) -> Bool { world.family[person].fob != nil }

    /// Brown-outs and restarts at random moments of the next 20 minutes (taken while moving).
    private mutating func scheduleLifeEvents(_ life: RealLife) {
        world.cancelScheduledLifeEvents()
        if lifeRandom.chance(life.brownOutChance) {
            world.scheduleBrownOut(atMs: world.nowMs + Int64(lifeRandom.uniform(60...720) * 1000))
        }
        if lifeRandom.chance(life.restartChance) {
            for _ in 0..<lifeRandom.integer(life.restartsPerTrip) {
                world.scheduleRestart(atMs: world.nowMs + Int64(lifeRandom.uniform(30...1_200) * 1000))
            }
        }
    }

    /// Ignition on, a tap (or not: one trip in fifteen nobody taps), a moment to settle in.
    ///
    /// A forgotten tap leaves the trip untracked, except where the continuity rule the service
    /// follows (README, "Continuity") makes it the driver's: the car's last drive was theirs,
    /// tapped, and ended less than `newTripMaxStop` ago, and their fob is aboard.
    private mutating func beginTrip(_ driver: Person, boarded: Bool = false) {
        let tapping = !random.chance(1.0 / 15)
        let lastDrive = world.truth.stints.last
        if !boarded { world.board(driver, tapping: tapping) } else { world.takeWheel(driver, tapping: tapping) }
        defer {
            // Judged as the car moves off, as the service judges it (the stop as long as the car stood).
            if !tapping && continuesTheLastDrive(lastDrive, driver) { world.takeWheel(driver, tapping: true) }
        }
        world.ignitionOn()
        world.wait(seconds: random.integer(2...6))
        if random.chance(0.05) {
            world.tapUnknownTag()
            world.wait(seconds: 3)
        }
        if tapping { world.tap(driver) }
        world.wait(seconds: random.integer(8...35))
        trips += 1
        if let life = realLife { scheduleLifeEvents(life) }
    }

    /// Parks: ignition off, the driver gets out and walks away (sometimes after unloading).
    private mutating func endTrip(leaving: Bool) {
        if realLife != nil { world.cancelScheduledLifeEvents() }
        guard let driver = world.wheel else { return }
        world.wait(seconds: random.integer(2...8))
        world.ignitionOff()
        world.wait(seconds: random.integer(3...12))
        world.exit(driver, departing: leaving, lingerSeconds: random.chance(0.2) ? random.integer(10...40) : 0)
    }

    private func dayStart(_ day: Int) -> Int64 { Int64(day) * 86_400_000 }

    /// `base` hours after 06:00, give or take `spread` hours.
    private mutating func hours(_ base: Double, spread: Double) -> Int64 {
        Int64(((base - 6) + random.uniform(-spread...spread)) * 3_600_000)
    }
}
