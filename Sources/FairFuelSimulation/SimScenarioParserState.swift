import FairFuelCore
import FairFuelLink
import FairFuelParsers

/// The scenario parser's state while it reads a file line by line (`SimScenarioParser.parse`).
struct ParserState {
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
        if let time = ScenarioLineCursor.timeOfDay(word) {
            _ = try c.next("time")
            try timelineLine(&c, secondOfDay: time)
            return
        }
        if ScenarioLineCursor.timeOfDayShape(word) { throw c.error("'\(word)' is not a valid time (HH:MM or HH:MM:SS)") }
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
            scenario.seed = try c.next("seed", as: { UInt64($0) }) { "seed '\($0)' is not a whole number" }
        case "start":
            scenario.startDate = try c.next("start date (YYYY-MM-DD)", as: ScenarioLineCursor.date) {
                "start date '\($0)' is not a valid YYYY-MM-DD date"
            }
            scenario.startSecondOfDay = 0
            if let timeWord = c.peek {
                guard let time = ScenarioLineCursor.timeOfDay(timeWord) else { throw c.error("start time '\(timeWord)' is not HH:MM or HH:MM:SS") }
                c.index += 1
                scenario.startSecondOfDay = time
            }
        case "timezone":
            scenario.utcOffsetMinutes = try c.next("offset", as: ScenarioLineCursor.utcOffset) { "timezone '\($0)' is not UTC or ±HH:MM" }
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
                scenario.vehicleStart = .position(try c.point(latitude, longitude))
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
        switch try c.choice("gnss setting", ["rate", "sentences", "talker", "keep-alive", "ttff", "error"]) {
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
        default: scenario.gnss.horizontalErrorMeters = try c.distance("error")
        }
    }

    mutating func mcu(_ c: inout ScenarioLineCursor) throws(SimScenarioError) {
        switch try c.choice("mcu setting", ["name", "firmware", "board", "capabilities", "uptime", "boot", "bootloader"]) {
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
        default: scenario.mcu.bootloaderMs = try c.duration("bootloader time")
        }
    }

    mutating func radio(_ c: inout ScenarioLineCursor) throws(SimScenarioError) {
        switch try c.choice("radio setting", ["sensitivity", "miss", "shadowing"]) {
        case "sensitivity": scenario.radio.sensitivityDBm = try c.quantity("sensitivity", units: [(["dbm"], 1)], defaultUnit: 1)
        case "miss": scenario.radio.missRate = try c.percent("miss rate")
        default: scenario.radio.shadowingDB = try c.quantity("shadowing", units: [(["db"], 1)], defaultUnit: 1)
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
        var place = SimPlace(name: name, position: try c.point(latitude, longitude))
        if c.accept("range") { place.rangeMeters = try c.distance("range") }
        scenario.places.append(place)
    }

    mutating func driver(_ c: inout ScenarioLineCursor) throws(SimScenarioError) {
        let name = try c.next("driver name")
        guard !["nobody", "card", "blank"].contains(name.lowercased()) else { throw c.error("'\(name)' is a reserved word") }
        guard scenario.driver(named: name) == nil else { throw c.error("driver '\(name)' is declared twice") }
        var driver = SimDriver(name: name, line: c.line)
        try c.forEachOption { word, c throws(SimScenarioError) in
            switch word {
            case "tag": driver.tag = try tagSpec(&c, required: true)
            case "uri":
                driver.driverURI = try c.next("driver URI", as: DriverURI.init) { "'\($0)' is not fairfuel://driver/<uuid>" }
            case "beacon":
                let spec = try c.next("beacon spec or 'none'")
                if spec.lowercased() == "none" { driver.beacon = nil; return }
                do { driver.beacon = try BeaconIdentity(spec: spec) } catch { throw c.error("beacon '\(spec)': \(error)") }
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
        try c.forEachOption { word, c throws(SimScenarioError) in
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
        try c.next("stranger kind", as: { SimStrangerKind(rawValue: $0.lowercased()) }) {
            "unknown stranger kind '\($0)' (\(SimStrangerKind.allCases.map(\.rawValue).joined(separator: ", ")))"
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
}
