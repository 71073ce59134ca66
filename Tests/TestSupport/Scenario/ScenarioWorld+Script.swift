import FairFuelCore
import FairFuelDomain

/// What the people in a scenario do: the verbs scripts are written in.
extension ScenarioWorld {
    /// `person` gets into the car; at the wheel unless `atWheel` is false. While the dongle
    /// is on, they walk up from where they are (at most 25 m away) first.
    ///
    /// `tapping` says whether this driver will tap in: if not, their fuel is untracked.
    public mutating func board(_ person: Person, atWheel: Bool = true, tapping: Bool = true) {
        var state = people[person.rawValue]
        if dongleOn && !state.inCar {
            state.distance = min(state.distance, 25)
            state.walking = -1.3
            state.lingerUntilMs = 0
            people[person.rawValue] = state
            while people[person.rawValue].distance > 1 { idle() }
            state = people[person.rawValue]
        }
        state.inCar = true
        state.walking = 0
        state.distance = 0.8
        people[person.rawValue] = state
        if atWheel { takeWheel(person, tapping: tapping) }
    }

    /// `person` is now at the wheel (seats swapped, or boarded).
    public mutating func takeWheel(_ person: Person, tapping: Bool = true) {
        wheel = person
        wheelParty = tapping ? .driver(person) : .untracked
        if drivetrain.engineOn { openNewStint() }
    }

    /// Turns the ignition on: the dongle boots if it was off, the engine starts.
    public mutating func ignitionOn() {
        precondition(!ignition, "the ignition is already on")
        if !dongleOn { boot() }
        ignition = true
        powerDownAtMs = nil
        emit(.power(ignitionOn: true, supplyMillivolts: 13_900), at: nowMs + 150)
        drivetrain.start(atSeconds: Double(nowMs) / 1000)
        openNewStint()
    }

    /// Turns the ignition off: the engine stops, the dongle's hold-up supply starts counting.
    public mutating func ignitionOff() {
        precondition(ignition, "the ignition is already off")
        ignition = false
        emit(.power(ignitionOn: false, supplyMillivolts: 12_500), at: nowMs + 100)
        drivetrain.stop(atSeconds: Double(nowMs) / 1000)
        closeStint()
        powerDownAtMs = nowMs + options.holdUpMs
    }

    /// `person` taps their tag on the reader.
    public mutating func tap(_ person: Person) {
        let at = nowMs + Int64(random.integer(150...850))
        let driver = family[person]
        emit(.tag(uid: driver.tagUID, ndef: driver.tagNDEF), at: at)
        if let open = openSession {
            if truth.sessions[open].driver == person { return }
            truth.sessions[open].end = .switched(atMs: at)
        }
        truth.sessions.append(ScenarioTruth.Session(driver: person, tapMs: at, end: nil))
        openSession = truth.sessions.count - 1
        if wheel == person && wheelParty != .driver(person) {
            wheelParty = .driver(person)
            if drivetrain.engineOn { openNewStint() }
        }
    }

    /// Someone taps a tag nobody is provisioned with.
    public mutating func tapUnknownTag() {
        let at = nowMs + Int64(random.integer(150...850))
        emit(.tag(uid: ScenarioFamily.unknownTagUID, ndef: []), at: at)
        truth.unknownTapsMs.append(at)
    }

    /// The session is ended by hand (at the service).
    public mutating func endSessionByHand() {
        let at = nowMs + 300
        emit(.endSession, at: at)
        if let open = openSession {
            truth.sessions[open].end = .manual(atMs: at)
            openSession = nil
        }
    }

    /// `person` gets out. With `departing`, they walk away (after `lingerSeconds`) and
    /// their session, if open, really ends now; without, they stay by the car until
    /// told otherwise (`walk`, `board`).
    public mutating func exit(_ person: Person, departing: Bool = true, lingerSeconds: Int = 0) {
        var state = people[person.rawValue]
        precondition(state.inCar, "\(person) is not in the car")
        state.inCar = false
        state.distance = 1.2
        state.walking = departing ? random.uniform(1.1...1.5) : 0
        state.lingerUntilMs = nowMs + Int64(lingerSeconds) * 1000
        people[person.rawValue] = state
        if wheel == person {
            wheel = nil
            if drivetrain.engineOn { closeStint() }
        }
        if departing, let open = openSession, truth.sessions[open].driver == person {
            truth.sessions[open].end = .departure(stoppedMs: stoppedSinceMs ?? nowMs, leftMs: nowMs)
            openSession = nil
        }
    }

    /// `person`, outside, walks at `metersPerSecond` (positive: away) for `seconds`.
    public mutating func walk(_ person: Person, metersPerSecond: Double, seconds: Int) {
        people[person.rawValue].walking = metersPerSecond
        people[person.rawValue].lingerUntilMs = 0
        for _ in 0..<seconds { idle() }
        people[person.rawValue].walking = 0
    }

    /// `person` leaves their fob in the car (or takes it back).
    public mutating func leaveFobInCar(_ person: Person, _ left: Bool = true) {
        people[person.rawValue].fobLeftInCar = left
    }

    /// Replaces `person`'s fob (a dying battery: `family[person].fob!.dying`).
    public mutating func setFob(_ person: Person, _ fob: Fob?) {
        family[person].fob = fob
    }

    /// The car stands (engine as it is) for `seconds`.
    public mutating func wait(seconds: Int) {
        for _ in 0..<seconds { idle() }
    }

    /// Waits until the dongle's hold-up supply runs out.
    public mutating func holdUp() {
        precondition(!ignition, "the ignition is on")
        while dongleOn { idle() }
    }

    /// Jumps to world time `timeMs` with the dongle off: nothing is captured meanwhile.
    public mutating func skip(toMs timeMs: Int64) {
        precondition(!dongleOn, "the dongle is on: wait or hold up instead")
        precondition(timeMs >= nowMs, "time runs forward")
        flushPending()
        nowMs = timeMs
        for index in people.indices where !people[index].inCar {
            people[index].distance = 1_000
            people[index].walking = 0
        }
    }

    /// A fuel stop: ignition off, the driver out for about two minutes (pump, then the
    /// kiosk 35 m away where they pay), back in, ignition on. With `fill`, the tank is
    /// refuelled: `nil` litres fills it up, a number is a partial fill.
    public mutating func fuelStop(fill: Bool = true, partialLiters: Double? = nil, mark name: String? = nil) {
        guard let driver = wheel else { preconditionFailure("nobody at the wheel") }
        let tapping = wheelParty == .driver(driver)
        let previous = surroundings
        surroundings = .station
        if let name { mark(name + " stopped") }
        wait(seconds: 4)
        ignitionOff()
        wait(seconds: 3)
        exit(driver, departing: false)
        if let name { mark(name + " out") }
        walk(driver, metersPerSecond: 1.0, seconds: 2)  // to the filler cap
        wait(seconds: random.integer(45...60))
        walk(driver, metersPerSecond: 1.3, seconds: 25)  // to the kiosk
        wait(seconds: 6)
        if fill { refuel(partialLiters: partialLiters) }
        wait(seconds: 6)
        walk(driver, metersPerSecond: -1.3, seconds: 24)
        board(driver, tapping: tapping)
        if let name { mark(name + " back") }
        wait(seconds: 3)
        ignitionOn()
        wait(seconds: 4)
        surroundings = previous
    }

    /// Pays for fuel now: a full tank (`partialLiters` nil) or a partial fill.
    public mutating func refuel(partialLiters: Double? = nil) {
        let liters = partialLiters ?? ((car.tankLiters - tankLiters) * 100).rounded() / 100
        let price = Int64(random.integer(169...189)) * 10 + 9
        let cost = MinorUnits(Int64((liters * Double(price)).rounded()))
        tankLiters += liters
        truth.periods[truth.periods.count - 1].refuel = ScenarioTruth.Refuel(
            atMs: nowMs, liters: liters, cost: cost, fullTank: partialLiters == nil, priceCentsPerLiter: price)
        truth.periods.append(ScenarioTruth.Period())
    }

    // MARK: Internals

    /// One second with the car standing or rolling to a stop.
    mutating func idle() {
        second(acceleration: -min(speed, 3))
    }

    mutating func boot() {
        dongleOn = true
        bootMs = nowMs
        lifeEvents.powerUpsMs.append(nowMs)
        emit(.hello(ignitionSense: options.ignitionSense), at: nowMs + 50)
        // A receiver kept warm by its backup supply: a hot start after a short stop, warm after hours.
        let off = nowMs - poweredDownAtMs
        let ttff = off < 1_800_000 ? random.integer(2_000...6_000) : random.integer(12_000...32_000)
        fixFromMs = nowMs + Int64(ttff)
        for index in people.indices {
            people[index].nextAdvertMs = Double(nowMs) + random.uniform(0...1000)
        }
    }

    mutating func openNewStint() {
        closeStint()
        guard let driver = wheel else { return }
        truth.stints.append(ScenarioTruth.Stint(driver: driver, party: wheelParty, fromMs: nowMs, toMs: nowMs))
        openStint = truth.stints.count - 1
    }

    mutating func closeStint() {
        if let stint = openStint { truth.stints[stint].toMs = nowMs }
        openStint = nil
    }
}
