import FairFuelCore
import FairFuelEdges
import FairFuelLink
import FairFuelParsers

/// Reads the line-based scenario format of `scenarios/README.md` into a `SimScenario`.
///
/// Header lines (title, start, places, drivers...) come first; `day` lines open the
/// timeline, whose lines start with a local time. Lines indented under a `trip` add to
/// that trip. Every error names its line.
public enum SimScenarioParser {
    /// Parses scenario text; `baseDirectory` resolves relative NMEA log paths.
    public static func parse(_ text: String, sourceName: String = "scenario", baseDirectory: String = ".")
        throws(SimScenarioError) -> SimScenario
    {
        var state = ParserState(sourceName: sourceName)
        state.scenario.sourceName = sourceName
        state.scenario.baseDirectory = baseDirectory
        var number = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let indented = rawLine.first == " " || rawLine.first == "\t"
            var cursor = try ScenarioLineCursor(text: rawLine, line: number, sourceName: sourceName)
            if cursor.isAtEnd { continue }
            if indented, state.openTrip != nil {
                try state.tripDetail(&cursor)
            } else {
                state.closeTrip()
                try state.directive(&cursor)
            }
        }
        state.closeTrip()
        return state.scenario
    }

    /// Reads and parses a scenario file.
    public static func load(path: String) throws(SimScenarioError) -> SimScenario {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let bytes: [UInt8]
        switch TextFileReader.readAll(path: path, maximumBytes: 4 << 20) {
        case .success(let read): bytes = read
        case .failure(let error): throw SimScenarioError(sourceName: name, line: 0, message: error.description)
        }
        var directory = "."
        if let slash = path.lastIndex(of: "/") { directory = slash == path.startIndex ? "/" : String(path[..<slash]) }
        return try parse(String(decoding: bytes, as: UTF8.self), sourceName: name, baseDirectory: directory)
    }
}

private struct ParserState {
    var scenario = SimScenario()
    let sourceName: String
    var day: UTCDate?
    var lastTimeMs: Int64 = 0
    var openTrip: (entry: Int, trip: SimTrip)?

    init(sourceName: String) { self.sourceName = sourceName }

    static let directives = [
        "title", "seed", "start", "timezone", "gnss", "mcu", "radio", "noise", "place", "vehicle",
        "altitude", "driver", "stranger", "ambient", "day",
    ]

    mutating func closeTrip() {
        guard let open = openTrip else { return }
        scenario.timeline[open.entry].action = .trip(open.trip)
        openTrip = nil
    }

    // MARK: header

    mutating func directive(_ c: inout ScenarioLineCursor) throws(SimScenarioError) {
        let word = c.peek!
        if let time = ParserState.timeOfDay(word) {
            _ = try c.next("time")
            try timelineLine(&c, secondOfDay: time)
            return
        }
        if ParserState.timeOfDayShape(word) { throw c.error("'\(word)' is not a valid time (HH:MM or HH:MM:SS)") }
        let keyword = try c.next("directive").lowercased()
        if day != nil && !["day", "noise"].contains(keyword) {
            if ParserState.directives.contains(keyword) {
                throw c.error("'\(keyword)' belongs in the header, before the first 'day'")
            }
        }
        switch keyword {
        case "title":
            scenario.title = c.rest.joined(separator: " ")
            guard !scenario.title.isEmpty else { throw c.error("missing title text") }
            return
        case "seed":
            let word = try c.next("seed")
            guard let seed = UInt64(word) else { throw c.error("seed '\(word)' is not a whole number") }
            scenario.seed = seed
        case "start":
            let dateWord = try c.next("start date (YYYY-MM-DD)")
            guard let date = ParserState.date(dateWord) else { throw c.error("start date '\(dateWord)' is not a valid YYYY-MM-DD date") }
            scenario.startDate = date
            scenario.startSecondOfDay = 0
            if let timeWord = c.peek {
                guard let time = ParserState.timeOfDay(timeWord) else { throw c.error("start time '\(timeWord)' is not HH:MM or HH:MM:SS") }
                c.index += 1
                scenario.startSecondOfDay = time
            }
        case "timezone":
            let word = try c.next("offset")
            guard let minutes = ParserState.utcOffset(word) else { throw c.error("timezone '\(word)' is not UTC or ±HH:MM") }
            scenario.utcOffsetMinutes = minutes
        case "gnss": try gnss(&c)
        case "mcu": try mcu(&c)
        case "radio": try radio(&c)
        case "noise":
            if day != nil {
                throw c.error("a 'noise' line in the timeline needs a time (e.g. '08:00 noise 0.5 %')")
            }
            scenario.noise = try noise(&c, current: scenario.noise)
        case "place": try place(&c)
        case "vehicle":
            try c.expect("at")
            let word = try c.next("place or latitude")
            if let latitude = Double(word) {
                let longitude = try c.number("longitude")
                scenario.vehicleStart = .position(try ParserState.point(latitude, longitude, c))
            } else {
                guard scenario.place(named: word) != nil else { throw unknownPlace(word, c) }
                scenario.vehicleStart = .place(word)
            }
        case "altitude":
            scenario.altitudeMeters = try c.quantity("altitude", units: [(["m"], 1)], defaultUnit: 1)
        case "driver": try driver(&c)
        case "stranger": try stranger(&c)
        case "ambient":
            let which = try c.next("'driving' or 'parked'").lowercased()
            let rate = try c.ratePerMinute("ambient rate")
            switch which {
            case "driving": scenario.ambientDrivingPerMinute = rate
            case "parked": scenario.ambientParkedPerMinute = rate
            default: throw c.error("ambient '\(which)': expected 'driving' or 'parked'")
            }
        case "day": try dayLine(&c)
        default:
            throw c.error("unknown directive '\(keyword)' (expected \(ParserState.directives.joined(separator: ", ")), or a time)")
        }
        try c.requireEnd()
    }

    mutating func gnss(_ c: inout ScenarioLineCursor) throws(SimScenarioError) {
        let setting = try c.next("gnss setting").lowercased()
        switch setting {
        case "rate":
            let rate = Int(try c.quantity("rate", units: [(["hz"], 1)], defaultUnit: 1))
            guard [1, 2, 5, 10].contains(rate) else { throw c.error("gnss rate must be 1, 2, 5 or 10 Hz") }
            scenario.gnss.rateHz = rate
        case "sentences":
            var kinds: [GNSSSentenceKind] = []
            while let word = c.peek {
                guard let kind = GNSSSentenceKind(rawValue: word.lowercased()) else {
                    throw c.error("unknown sentence '\(word)' (rmc, gga, gsa, vtg)")
                }
                kinds.append(kind)
                c.index += 1
            }
            guard kinds.contains(.rmc) else { throw c.error("gnss sentences must include rmc") }
            scenario.gnss.sentences = kinds
        case "talker":
            let talker = try c.next("talker").uppercased()
            guard ["GP", "GN", "GL", "GA", "GB"].contains(talker) else { throw c.error("talker must be GP, GN, GL, GA or GB") }
            scenario.gnss.talker = talker
        case "keep-alive":
            if c.accept("always") { scenario.gnss.keepAliveMs = nil } else {
                scenario.gnss.keepAliveMs = try c.duration("keep-alive")
            }
        case "ttff": scenario.gnss.timeToFirstFixMs = try c.duration("time to first fix")
        case "error": scenario.gnss.horizontalErrorMeters = try c.distance("error")
        default: throw c.error("unknown gnss setting '\(setting)' (rate, sentences, talker, keep-alive, ttff, error)")
        }
    }

    mutating func mcu(_ c: inout ScenarioLineCursor) throws(SimScenarioError) {
        let setting = try c.next("mcu setting").lowercased()
        switch setting {
        case "name":
            let name = try c.next("name")
            guard name.utf8.count <= Hello.maximumNameBytes else { throw c.error("mcu name is longer than 32 bytes") }
            scenario.mcu.name = name
        case "firmware":
            let word = try c.next("firmware version")
            let parts = word.split(separator: ".").compactMap { UInt8($0) }
            guard parts.count == 3 else { throw c.error("firmware '\(word)' is not MAJOR.MINOR.PATCH") }
            scenario.mcu.firmware = (parts[0], parts[1], parts[2])
        case "board":
            let value = try c.integer("board id")
            guard (0...0xFFFF).contains(value) else { throw c.error("board id must fit 16 bits") }
            scenario.mcu.boardID = UInt16(value)
        case "capabilities":
            let value = try c.integer("capabilities")
            guard (0...0xFFFF).contains(value) else { throw c.error("capabilities must fit 16 bits") }
            scenario.mcu.capabilities = MCUCapabilities(rawValue: UInt16(value))
        case "uptime":
            let value = try c.quantity("uptime", units: [(["ms"], 1), (["s"], 1000), (["h"], 3_600_000)], defaultUnit: 1)
            guard value >= 0, value <= Double(UInt32.max) else { throw c.error("uptime must be 0 to 4294967295 ms") }
            scenario.mcu.initialUptimeMs = UInt32(value)
        case "boot": scenario.mcu.bootMs = try c.duration("boot time")
        case "bootloader": scenario.mcu.bootloaderMs = try c.duration("bootloader time")
        default: throw c.error("unknown mcu setting '\(setting)' (name, firmware, board, capabilities, uptime, boot, bootloader)")
        }
    }

    mutating func radio(_ c: inout ScenarioLineCursor) throws(SimScenarioError) {
        let setting = try c.next("radio setting").lowercased()
        switch setting {
        case "sensitivity": scenario.radio.sensitivityDBm = try c.quantity("sensitivity", units: [(["dbm"], 1)], defaultUnit: 1)
        case "miss": scenario.radio.missRate = try c.percent("miss rate")
        case "shadowing": scenario.radio.shadowingDB = try c.quantity("shadowing", units: [(["db"], 1)], defaultUnit: 1)
        default: throw c.error("unknown radio setting '\(setting)' (sensitivity, miss, shadowing)")
        }
    }

    func noise(_ c: inout ScenarioLineCursor, current: LineNoiseSettings) throws(SimScenarioError) -> LineNoiseSettings {
        var settings = current
        if c.accept("off") { return LineNoiseSettings() }
        if c.accept("bursts") {
            settings.garbageBurstsPerMinute = try c.ratePerMinute("burst rate")
        } else {
            settings.byteErrorRate = try c.percent("corrupted bytes")
            if c.accept("bursts") { settings.garbageBurstsPerMinute = try c.ratePerMinute("burst rate") }
        }
        return settings
    }

    mutating func place(_ c: inout ScenarioLineCursor) throws(SimScenarioError) {
        let name = try c.next("place name")
        guard Double(name) == nil else { throw c.error("a place needs a name before its coordinates") }
        guard scenario.place(named: name) == nil else { throw c.error("place '\(name)' is declared twice") }
        let latitude = try c.number("latitude")
        let longitude = try c.number("longitude")
        var place = SimPlace(name: name, position: try ParserState.point(latitude, longitude, c))
        if c.accept("range") { place.rangeMeters = try c.distance("range") }
        scenario.places.append(place)
    }

    mutating func driver(_ c: inout ScenarioLineCursor) throws(SimScenarioError) {
        let name = try c.next("driver name")
        guard !["nobody", "card", "blank"].contains(name.lowercased()) else { throw c.error("'\(name)' is a reserved word") }
        guard scenario.driver(named: name) == nil else { throw c.error("driver '\(name)' is declared twice") }
        var driver = SimDriver(name: name, line: c.line)
        while let word = c.peek?.lowercased() {
            c.index += 1
            switch word {
            case "tag": driver.tag = try tagSpec(&c, required: true)
            case "uri":
                let text = try c.next("driver URI")
                guard let uri = DriverURI(text) else { throw c.error("'\(text)' is not fairfuel://driver/<uuid>") }
                driver.driverURI = uri
            case "beacon":
                let spec = try c.next("beacon spec or 'none'")
                if spec.lowercased() == "none" { driver.beacon = nil; continue }
                do {
                    driver.beacon = try BeaconIdentity(spec: spec)
                } catch {
                    throw c.error("beacon '\(spec)': \(error)")
                }
            case "interval":
                driver.beaconIntervalMs = try c.duration("advertising interval")
                guard driver.beaconIntervalMs >= 20 else { throw c.error("advertising interval must be at least 20 ms") }
            case "power": driver.beaconPowerDBm = try c.quantity("measured power", units: [(["dbm"], 1)], defaultUnit: 1)
            default: throw c.error("unknown driver attribute '\(word)' (tag, uri, beacon, interval, power)")
            }
        }
        if driver.tag == nil && driver.driverURI != nil { driver.tag = SimTagSpec(kind: .ntag213, uid: nil) }
        scenario.drivers.append(driver)
    }

    /// `[KIND] [UID]`; with `required`, at least one of them.
    func tagSpec(_ c: inout ScenarioLineCursor, required: Bool) throws(SimScenarioError) -> SimTagSpec? {
        var kind: SimTagKind?
        var uid: [UInt8]?
        if let word = c.peek, let known = SimTagKind(rawValue: word.lowercased()) {
            kind = known
            c.index += 1
        }
        if let word = c.peek, ScenarioLineCursor.looksLikeHex(word) || (kind == nil && ScenarioLineCursor.hex(word) != nil && word.count >= 8) {
            uid = try c.hexBytes("tag UID")
        }
        if kind == nil && uid == nil {
            if required { throw c.error("a tag needs a kind (\(SimTagKind.allCases.map(\.rawValue).joined(separator: ", "))) or a UID") }
            return nil
        }
        if let uid {
            if kind == nil {
                guard let guessed = SimTagKind.guess(uidLength: uid.count, firstByte: uid[0]) else {
                    throw c.error("a tag UID has 4, 7, 8 or 10 bytes, not \(uid.count)")
                }
                kind = guessed
            }
            let lengths = kind!.technology == .iso14443A ? [4, 7, 10] : [kind!.uidLength]
            guard lengths.contains(uid.count) else {
                throw c.error("a \(kind!.rawValue) UID has \(lengths.map(String.init).joined(separator: " or ")) bytes, not \(uid.count)")
            }
        }
        return SimTagSpec(kind: kind!, uid: uid)
    }

    mutating func stranger(_ c: inout ScenarioLineCursor) throws(SimScenarioError) {
        let name = try c.next("stranger name")
        let kind = try strangerKind(&c)
        try c.expect("at")
        let placeName = try c.next("place")
        guard scenario.place(named: placeName) != nil else { throw unknownPlace(placeName, c) }
        var stranger = SimStranger(name: name, kind: kind, place: placeName, rangeMeters: 10, line: c.line)
        while let word = c.peek?.lowercased() {
            c.index += 1
            switch word {
            case "range": stranger.rangeMeters = try c.distance("range")
            case "identity":
                let spec = try c.next("beacon spec")
                do { stranger.identity = try BeaconIdentity(spec: spec) } catch { throw c.error("identity '\(spec)': \(error)") }
            default: throw c.error("unknown stranger attribute '\(word)' (range, identity)")
            }
        }
        scenario.residentStrangers.append(stranger)
    }

    func strangerKind(_ c: inout ScenarioLineCursor) throws(SimScenarioError) -> SimStrangerKind {
        let word = try c.next("stranger kind")
        guard let kind = SimStrangerKind(rawValue: word.lowercased()) else {
            throw c.error("unknown stranger kind '\(word)' (\(SimStrangerKind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return kind
    }

    // MARK: timeline

    mutating func dayLine(_ c: inout ScenarioLineCursor) throws(SimScenarioError) {
        let word = try c.next("day number or date")
        let date: UTCDate
        if let number = Int(word) {
            guard number >= 1 else { throw c.error("days count from 1 (the start date)") }
            date = UTCDate(daysSinceEpoch: scenario.startDate.daysSinceEpoch + Int64(number - 1))
        } else if let parsed = ParserState.date(word) {
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
            let word = try c.next("'on' or 'off'").lowercased()
            guard word == "on" || word == "off" else { throw c.error("ignition '\(word)': expected on or off") }
            action = .ignition(word == "on")
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
            try c.expect("for")
            let duration = try c.duration("duration")
            var range = 6.0
            if c.accept("range") { range = try c.distance("range") }
            action = .strangers(kind: kind, count: count, durationMs: duration, rangeMeters: range)
        case "near":
            let name = try c.next("driver")
            guard let driver = scenario.driver(named: name) else { throw unknownDriver(name, c) }
            try c.expect("for")
            let duration = try c.duration("duration")
            var range = 3.0
            if c.accept("range") { range = try c.distance("range") }
            action = .near(driver: driver.name, durationMs: duration, rangeMeters: range)
        case "log":
            let word = try c.next("level").lowercased()
            guard let level = MCULog.Level.allCases.first(where: { $0.name == word }) else {
                throw c.error("log level '\(word)': expected debug, info, warn or error")
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
            } else if word.first?.isNumber == true {
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
                SimRouteKind(rawValue: name.lowercased()) == nil, name.first?.isNumber != true
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
        case "swap":
            if let next = c.peek, next.first?.isNumber == true { duration = try c.duration("stop duration") }
            let name = try c.next("new driver")
            guard trip.passengers.contains(where: { $0.lowercased() == name.lowercased() }) else {
                throw c.error("swap: '\(name)' is not a passenger of this trip (add 'with \(name)')")
            }
            kind = .swap(scenario.driver(named: name)!.name)
        case "drop":
            if let next = c.peek, next.first?.isNumber == true { duration = try c.duration("stop duration") }
            let name = try c.next("passenger")
            guard trip.passengers.contains(where: { $0.lowercased() == name.lowercased() }) else {
                throw c.error("drop: '\(name)' is not a passenger of this trip")
            }
            kind = .drop(scenario.driver(named: name)!.name)
            if duration == 0 { duration = 30_000 }
        default: throw c.error("unknown stop '\(word)' (light, wait, park, fuel, swap NAME, drop NAME)")
        }
        if let next = c.peek, next.first?.isNumber == true { duration = try c.duration("stop duration") }
        guard duration > 0 else { throw c.error("a \(word) stop needs a duration (e.g. '40 s')") }
        var at: Double?
        var repeatCount = 1
        var liters: Double?
        var cost: Int64?
        while let option = c.peek?.lowercased() {
            c.index += 1
            switch option {
            case "at": at = try c.distance("position along the route")
            case "liters", "litres":
                liters = try c.number("liters")
                guard liters! > 0, liters! < 500 else { throw c.error("liters must be between 0 and 500") }
            case "cost":
                let text = try c.next("cost")
                guard let minor = ParserState.money(text) else { throw c.error("cost '\(text)' is not an amount like 71.45") }
                cost = minor
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

    // MARK: values

    func unknownDriver(_ name: String, _ c: ScenarioLineCursor) -> SimScenarioError {
        let known = scenario.drivers.map(\.name).joined(separator: ", ")
        return c.error("unknown driver '\(name)'" + (known.isEmpty ? " (no drivers declared)" : " (drivers: \(known))"))
    }

    func unknownPlace(_ name: String, _ c: ScenarioLineCursor) -> SimScenarioError {
        let known = scenario.places.map(\.name).joined(separator: ", ")
        return c.error("unknown place '\(name)'" + (known.isEmpty ? " (no places declared)" : " (places: \(known))"))
    }

    static func point(_ latitude: Double, _ longitude: Double, _ c: ScenarioLineCursor) throws(SimScenarioError) -> GeoPoint {
        guard (-85...85).contains(latitude) else { throw c.error("latitude \(latitude) is out of range (-85 to 85)") }
        guard (-180...180).contains(longitude) else { throw c.error("longitude \(longitude) is out of range") }
        return GeoPoint(latitude: latitude, longitude: longitude)
    }

    static func timeOfDayShape(_ word: String) -> Bool {
        word.first?.isNumber == true && word.contains(":") && word.allSatisfy { $0.isNumber || $0 == ":" }
    }

    /// `HH:MM` or `HH:MM:SS` as seconds of the day.
    static func timeOfDay(_ word: String) -> Int? {
        let parts = word.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts.allSatisfy({ $0.count == 2 }) else { return nil }
        guard let hours = Int(parts[0]), let minutes = Int(parts[1]), (0...23).contains(hours), (0...59).contains(minutes)
        else { return nil }
        var seconds = 0
        if parts.count == 3 {
            guard let value = Int(parts[2]), (0...59).contains(value) else { return nil }
            seconds = value
        }
        return hours * 3600 + minutes * 60 + seconds
    }

    static func date(_ word: String) -> UTCDate? {
        let parts = word.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        return UTCDate(year: year, month: month, day: day)
    }

    static func utcOffset(_ word: String) -> Int? {
        if word.uppercased() == "UTC" || word.uppercased() == "Z" { return 0 }
        guard let sign = word.first, sign == "+" || sign == "-" else { return nil }
        let parts = word.dropFirst().split(separator: ":")
        guard parts.count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]), (0...14).contains(hours),
            (0...59).contains(minutes)
        else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 60 + minutes)
    }

    /// `71.45` or `71` as minor units (cents); at most two decimals.
    static func money(_ word: String) -> Int64? {
        let parts = word.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = Int64(parts[0]), whole >= 0 else { return nil }
        var cents: Int64 = 0
        if parts.count == 2 {
            guard (1...2).contains(parts[1].count), parts[1].allSatisfy(\.isNumber), let fraction = Int64(parts[1]) else { return nil }
            cents = parts[1].count == 1 ? fraction * 10 : fraction
        }
        return whole * 100 + cents
    }
}
