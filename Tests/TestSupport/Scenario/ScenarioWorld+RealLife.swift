import FairFuelCore

/// What real cars see besides clean trips: MCU brown-outs while driving, service restarts
/// (where a test cuts the capture), kiosk queues at fuel stops and parks mid-trip.
extension ScenarioWorld {
    /// Browns the MCU out at the first moving second at or after `timeMs` (while the dongle is on).
    public mutating func scheduleBrownOut(atMs timeMs: Int64) {
        lifeEvents.brownOutsMs.append(timeMs)
        lifeEvents.brownOutsMs.sort()
    }

    /// Notes a service restart at the first moving second at or after `timeMs`: the service
    /// is not simulated, so the world only records when (`takeRestarts`), for a test to cut its capture there.
    public mutating func scheduleRestart(atMs timeMs: Int64) {
        lifeEvents.restartsMs.append(timeMs)
        lifeEvents.restartsMs.sort()
    }

    /// Forgets brown-outs and restarts that did not happen (the trip ended before).
    public mutating func cancelScheduledLifeEvents() {
        lifeEvents.brownOutsMs.removeAll()
        lifeEvents.restartsMs.removeAll()
    }

    /// Brown-outs that happened so far, at the moment the MCU went dark.
    public var brownOutsMs: [Int64] { lifeEvents.happenedBrownOutsMs }

    /// When the dongle powered up (the ignition after the hold-up ran out) since the last call:
    /// the service on it starts afresh there, in link time.
    public mutating func takePowerUps() -> [Int64] {
        defer { lifeEvents.powerUpsMs.removeAll() }
        return lifeEvents.powerUpsMs
    }

    /// The restarts that happened since the last call, in link time.
    public mutating func takeRestarts() -> [Int64] {
        defer { lifeEvents.happenedRestartsMs.removeAll() }
        return lifeEvents.happenedRestartsMs
    }

    /// A fuel stop with a queue at the kiosk: the driver pumps, walks about 100 m away (well
    /// out of the scanner's range), queues for `queueSeconds`, pays and comes back, and drives
    /// on without a new tap. Their fuel stays theirs only when their fob can be heard when they
    /// come back (`keepsParty`): the rule the service follows.
    public mutating func fuelStopWithQueue(queueSeconds: Int, partialLiters: Double? = nil, keepsParty: Bool) {
        guard let driver = wheel else { preconditionFailure("nobody at the wheel") }
        let tapping = wheelParty == .driver(driver) && keepsParty
        let previous = surroundings
        surroundings = .station
        wait(seconds: 4)
        ignitionOff()
        wait(seconds: 3)
        exit(driver, departing: false)
        walk(driver, metersPerSecond: 1.0, seconds: 2)  // to the filler cap
        wait(seconds: random.integer(45...60))
        walk(driver, metersPerSecond: 1.3, seconds: 75)  // to the kiosk across the forecourt and the shop
        wait(seconds: queueSeconds)
        refuel(partialLiters: partialLiters)
        walk(driver, metersPerSecond: -1.3, seconds: 74)
        board(driver, tapping: tapping)
        wait(seconds: 3)
        ignitionOn()
        wait(seconds: 4)
        surroundings = previous
    }

    /// A park mid-trip: ignition off, the driver gets out and walks away for `minutes`, comes
    /// back and drives on, tapping again when `retap`. Without a tap, the fuel is theirs only
    /// when it was before (they had tapped) and `keepsParty` (their fob is heard): the rule the
    /// service follows.
    public mutating func parkMidTrip(minutes: Double, retap: Bool, keepsParty: Bool) {
        guard let driver = wheel else { preconditionFailure("nobody at the wheel") }
        let tapped = wheelParty == .driver(driver)
        let previous = surroundings
        surroundings = .street
        wait(seconds: random.integer(2...8))
        ignitionOff()
        wait(seconds: random.integer(3...12))
        exit(driver, departing: true)
        wait(seconds: Int(minutes * 60))
        board(driver, tapping: retap || (tapped && keepsParty))
        ignitionOn()
        wait(seconds: random.integer(2...6))
        if retap { tap(driver) }
        wait(seconds: random.integer(8...35))
        surroundings = previous
    }

    /// The MCU browns out: silent for a moment, then a fresh HELLO with its uptime restarted;
    /// the GNSS receiver on the same supply needs a hot start.
    mutating func brownOut(at t0: Int64) {
        let offMs = Int64(random.integer(300...1_500))
        lifeEvents.silentFromMs = t0
        lifeEvents.silentUntilMs = t0 + offMs
        lifeEvents.happenedBrownOutsMs.append(t0)
        bootMs = t0 + offMs - 50
        emit(.hello(ignitionSense: options.ignitionSense), at: t0 + offMs)
        fixFromMs = max(fixFromMs, t0 + offMs + Int64(random.integer(1_000...3_000)))
    }

    mutating func lifeEventsDue(at t0: Int64) {
        while let first = lifeEvents.brownOutsMs.first, first <= t0 {
            lifeEvents.brownOutsMs.removeFirst()
            brownOut(at: t0)
        }
        while let first = lifeEvents.restartsMs.first, first <= t0 {
            lifeEvents.restartsMs.removeFirst()
            lifeEvents.happenedRestartsMs.append(t0)
        }
    }
}

/// Scheduled and past brown-outs and restarts.
struct LifeEvents: Sendable {
    var brownOutsMs: [Int64] = []
    var restartsMs: [Int64] = []
    var happenedBrownOutsMs: [Int64] = []
    var happenedRestartsMs: [Int64] = []
    var powerUpsMs: [Int64] = []
    /// The MCU is dark in [silentFromMs, silentUntilMs).
    var silentFromMs: Int64 = .max
    var silentUntilMs: Int64 = .min

    func isDue(at t0: Int64) -> Bool {
        (brownOutsMs.first.map { $0 <= t0 } ?? false) || (restartsMs.first.map { $0 <= t0 } ?? false)
    }

    func silences(_ timeMs: Int64) -> Bool { timeMs >= silentFromMs && timeMs < silentUntilMs }
}
