import FairFuelCore
import FairFuelLink
import FairFuelParsers

/// The scenario's timeline: days, the lines under them, trips and their stops.
extension ParserState {
    // MARK: timeline

    mutating func dayLine(_ c: inout ScenarioLineCursor) throws(SimScenarioError) {
        let word = try c.next("day number or date")
        let date: UTCDate
        if let number = Int(word) {
            guard number >= 1 else { throw c.error("days count from 1 (the start date)") }
            date = UTCDate(daysSinceEpoch: scenario.startDate.daysSinceEpoch + Int64(number - 1))
        } else if let parsed = ScenarioLineCursor.date(word) {
            date = parsed
        } else {
            throw c.error("day '\(word)' is neither a day number nor a YYYY-MM-DD date")
        }
        if let weekday = c.peek {
            let names = ["thu", "fri", "sat", "sun", "mon", "tue", "wed"]  // 1970-01-01 was a Thursday
            guard let given = names.firstIndex(of: String(weekday.lowercased().prefix(3))) else {
                throw c.error("'\(weekday)' is not a weekday name")
            }
            let actual = Int(((date.daysSinceEpoch % 7) + 7) % 7)
            guard given == actual else { throw c.error("\(date) is a \(names[actual]), not a \(weekday)") }
            c.index += 1
        }
        if let previous = day, date < previous { throw c.error("day \(date) comes before the previous day \(previous)") }
        guard date >= scenario.startDate else { throw c.error("day \(date) is before the start date \(scenario.startDate)") }
        day = date
    }

    mutating func timelineLine(_ c: inout ScenarioLineCursor, secondOfDay: Int) throws(SimScenarioError) {
        guard let day else { throw c.error("a timed line needs a 'day' line before it") }
        let time = (day.daysSinceEpoch - scenario.startDate.daysSinceEpoch) * 86_400_000
            + Int64(secondOfDay - scenario.startSecondOfDay) * 1000
        guard time >= 0 else { throw c.error("this time is before the scenario's start") }
        guard time >= lastTimeMs else { throw c.error("time goes backwards (lines must be in time order)") }
        lastTimeMs = time
        let command = try c.next("command").lowercased()
        let action: SimAction
        switch command {
        case "trip":
            let trip = try tripLine(&c)
            scenario.timeline.append(SimTimelineEntry(timeMs: time, action: .trip(trip), line: c.line))
            openTrip = (scenario.timeline.count - 1, trip)
            return
        case "tap":
            let word = try c.next("driver, 'card' or tag")
            if word.lowercased() == "card" {
                action = .tapTag(.bankCard, uid: nil)
            } else if let driver = scenario.driver(named: word) {
                guard driver.tag != nil else { throw c.error("driver '\(word)' has no tag") }
                action = .tapDriver(driver.name)
            } else {
                c.index -= 1
                guard let spec = try tagSpec(&c, required: false) else { throw unknownDriver(word, c) }
                action = .tapTag(spec.kind, uid: spec.uid)
            }
        case "present":
            try c.expect("blank")
            let spec = try tagSpec(&c, required: false)
            let readOnly = c.accept("readonly")
            action = .presentBlank(spec?.kind ?? .ntag213, uid: spec?.uid, readOnly: readOnly)
        case "ignition":
            action = .ignition(try c.next("'on' or 'off'", as: { ["on": true, "off": false][$0.lowercased()] }) {
                "ignition '\($0.lowercased())': expected on or off"
            })
        case "reboot": action = .reboot
        case "unplug": action = .unplug(durationMs: try c.duration("unplugged time"))
        case "noise":
            if c.accept("burst") {
                let bytes = Int(try c.quantity("burst length", units: [(["bytes", "b"], 1)], defaultUnit: 1))
                guard (1...4096).contains(bytes) else { throw c.error("a burst is 1 to 4096 bytes") }
                action = .garbageBurst(bytes: bytes)
            } else {
                action = .noise(try noise(&c, current: currentNoise))
            }
        case "stranger", "strangers":
            let kind = try strangerKind(&c)
            var count = 1
            if let word = c.peek, word.hasPrefix("x"), let n = Int(word.dropFirst()) {
                guard (1...50).contains(n) else { throw c.error("1 to 50 strangers at a time") }
                count = n
                c.index += 1
            }
            let (duration, range) = try presence(&c, defaultRangeMeters: 6)
            action = .strangers(kind: kind, count: count, durationMs: duration, rangeMeters: range)
        case "near":
            let name = try c.next("driver")
            guard let driver = scenario.driver(named: name) else { throw unknownDriver(name, c) }
            let (duration, range) = try presence(&c, defaultRangeMeters: 3)
            action = .near(driver: driver.name, durationMs: duration, rangeMeters: range)
        case "log":
            let level = try c.next("level", as: { word in MCULog.Level.allCases.first { $0.name == word.lowercased() } }) {
                "log level '\($0.lowercased())': expected debug, info, warn or error"
            }
            let text = c.rest.joined(separator: " ")
            c.index = c.words.count
            guard text.utf8.count <= 249 else { throw c.error("log text is longer than 249 bytes") }
            action = .log(level, text)
        case "end": action = .end
        default:
            throw c.error("unknown command '\(command)' (trip, tap, present, ignition, reboot, unplug, noise, stranger, near, log, end)")
        }
        try c.requireEnd()
        scenario.timeline.append(SimTimelineEntry(timeMs: time, action: action, line: c.line))
    }

    /// `for DURATION [range N m]`: how long someone stays next to the car, and how near.
    func presence(_ c: inout ScenarioLineCursor, defaultRangeMeters: Double) throws(SimScenarioError) -> (Int64, Double) {
        try c.expect("for")
        let duration = try c.duration("duration")
        return (duration, c.accept("range") ? try c.distance("range") : defaultRangeMeters)
    }

    var currentNoise: LineNoiseSettings {
        for entry in scenario.timeline.reversed() {
            if case .noise(let settings) = entry.action { return settings }
        }
        return scenario.noise
    }

    func tripLine(_ c: inout ScenarioLineCursor) throws(SimScenarioError) -> SimTrip {
        let who = try c.next("driver or 'nobody'")
        var driverName: String?
        if who.lowercased() != "nobody" {
            guard let driver = scenario.driver(named: who) else { throw unknownDriver(who, c) }
            driverName = driver.name
        }
        var kind: SimRouteKind?
        var length: Double?
        var destination: String?
        var nmeaPath: String?
        var trip = SimTrip(driver: driverName, route: .generated(kind: .urban, lengthMeters: nil, destination: nil), line: c.line)
        if driverName == nil { trip.tap = .never }
        while let word = c.peek {
            if let routeKind = SimRouteKind(rawValue: word.lowercased()) {
                c.index += 1
                kind = routeKind
            } else if c.nextIsNumber {
                length = try c.distance("route length")
                guard length! >= 100 else { throw c.error("a route is at least 100 m long") }
            } else {
                try tripOption(&c, trip: &trip, destination: &destination, nmeaPath: &nmeaPath)
            }
        }
        if let nmeaPath {
            guard kind == nil, length == nil else { throw c.error("an nmea route takes its kind and length from the log") }
            trip.route = .nmeaLog(path: nmeaPath, destination: destination)
        } else {
            guard length != nil || destination != nil else {
                throw c.error("a trip needs a destination ('to PLACE'), a length ('6 km') or an NMEA log ('nmea FILE')")
            }
            trip.route = .generated(kind: kind ?? .urban, lengthMeters: length, destination: destination)
        }
        return trip
    }

    /// Options allowed both on the trip line and on its indented lines.
    func tripOption(
        _ c: inout ScenarioLineCursor, trip: inout SimTrip, destination: inout String?, nmeaPath: inout String?
    ) throws(SimScenarioError) {
        let word = try c.next("trip option").lowercased()
        switch word {
        case "to":
            let name = try c.next("place")
            guard let place = scenario.place(named: name) else { throw unknownPlace(name, c) }
            destination = place.name
        case "nmea": nmeaPath = try c.next("NMEA log path")
        case "notap":
            trip.tap = .never
        case "tap-late":
            guard trip.driver != nil else { throw c.error("nobody cannot tap") }
            trip.tap = .late(ms: try c.duration("tap delay"))
        case "stay": trip.stayMs = try c.duration("time in the parked car")
        case "approach": trip.approachMs = try c.duration("approach time")
        case "with":
            guard c.peek != nil else { throw c.error("missing passenger name") }
            while let name = c.peek, !["to", "nmea", "notap", "tap-late", "stay", "approach", "with"].contains(name.lowercased()),
                SimRouteKind(rawValue: name.lowercased()) == nil, !c.nextIsNumber
            {
                guard let driver = scenario.driver(named: name) else { throw unknownDriver(name, c) }
                guard driver.name != trip.driver, !trip.passengers.contains(driver.name) else {
                    throw c.error("'\(name)' is already in the car")
                }
                trip.passengers.append(driver.name)
                c.index += 1
            }
        default:
            throw c.error("unknown trip option '\(word)' (to PLACE, ROUTE KIND, LENGTH, nmea FILE, with NAMES, notap, tap-late TIME, stay, approach TIME)")
        }
    }

    mutating func tripDetail(_ c: inout ScenarioLineCursor) throws(SimScenarioError) {
        guard var open = openTrip else { return }
        if c.accept("stop") {
            try stop(&c, trip: &open.trip)
        } else {
            var destination: String?
            var nmeaPath: String?
            try tripOption(&c, trip: &open.trip, destination: &destination, nmeaPath: &nmeaPath)
            if destination != nil || nmeaPath != nil { throw c.error("the route goes on the trip's own line") }
        }
        try c.requireEnd()
        openTrip = open
    }

    func stop(_ c: inout ScenarioLineCursor, trip: inout SimTrip) throws(SimScenarioError) {
        let word = try c.next("stop kind").lowercased()
        var kind: SimStopKind
        var duration: Int64 = 0
        switch word {
        case "light": kind = .light
        case "wait": kind = .wait
        case "park": kind = .park
        case "fuel": kind = .fuel(liters: nil, costMinorUnits: nil)
        case "swap", "drop":
            // `swap [DURATION] NAME`, `drop [DURATION] NAME`: someone who rides along.
            if c.nextIsNumber { duration = try c.duration("stop duration") }
            let name = try c.next(word == "swap" ? "new driver" : "passenger")
            guard trip.passengers.contains(where: { $0.lowercased() == name.lowercased() }) else {
                throw c.error("\(word): '\(name)' is not a passenger of this trip" + (word == "swap" ? " (add 'with \(name)')" : ""))
            }
            let passenger = scenario.driver(named: name)!.name
            kind = word == "swap" ? .swap(passenger) : .drop(passenger)
            if word == "drop" && duration == 0 { duration = 30_000 }
        default: throw c.error("unknown stop '\(word)' (light, wait, park, fuel, swap NAME, drop NAME)")
        }
        if c.nextIsNumber { duration = try c.duration("stop duration") }
        guard duration > 0 else { throw c.error("a \(word) stop needs a duration (e.g. '40 s')") }
        var at: Double?
        var repeatCount = 1
        var liters: Double?
        var cost: Int64?
        try c.forEachOption { option, c throws(SimScenarioError) in
            switch option {
            case "at": at = try c.distance("position along the route")
            case "liters", "litres":
                liters = try c.number("liters")
                guard liters! > 0, liters! < 500 else { throw c.error("liters must be between 0 and 500") }
            case "cost":
                cost = try c.next("cost", as: ScenarioLineCursor.money) { "cost '\($0)' is not an amount like 71.45" }
            default:
                if option.hasPrefix("x"), let n = Int(option.dropFirst()), (1...50).contains(n) {
                    repeatCount = n
                } else {
                    throw c.error("unknown stop option '\(option)' (at DISTANCE, xN, liters N, cost N.NN)")
                }
            }
        }
        if case .fuel = kind { kind = .fuel(liters: liters, costMinorUnits: cost) } else if liters != nil || cost != nil {
            throw c.error("liters and cost belong to fuel stops")
        }
        if repeatCount > 1 && at != nil { throw c.error("a repeated stop cannot have one position") }
        guard case .generated = trip.route else { throw c.error("stops belong to generated routes (an NMEA log has its own)") }
        for _ in 0..<repeatCount {
            trip.stops.append(SimStop(kind: kind, durationMs: duration, atMeters: at, line: c.line))
        }
    }
}
