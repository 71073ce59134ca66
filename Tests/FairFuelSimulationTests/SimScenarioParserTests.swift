import Foundation
import FairFuelCore
import FairFuelParsers
import FairFuelSimulation
import FairFuelSimulationRunner
import Testing

@Suite struct SimScenarioParserTests {
    static let shippedFiles = [
        "short-drive.scenario", "reboot-and-noise.scenario", "provisioning.scenario", "nmea-log-drive.scenario",
        "family-week.scenario",
    ]

    @Test(arguments: shippedFiles)
    func shippedScenarioParsesAndPlans(_ name: String) throws {
        let scenario = try SimFixture.shipped(name)
        let plan = try SimPlanner.plan(scenario)
        // Every timeline line is planned in time order, within the scenario, and every trip
        // line of the file is a planned trip (the file's own text is the reference).
        let text = try String(contentsOfFile: SimFixture.scenariosDirectory + "/" + name, encoding: .utf8)
        let tripLines = text.split(separator: "\n").filter { line in
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            return words.count > 1 && words[1] == "trip" && !line.hasPrefix("#")
        }
        #expect(plan.trips.count == tripLines.count, "\(plan.trips.count) trips planned, \(tripLines.count) trip lines")
        #expect(scenario.timeline.count >= tripLines.count)
        #expect(zip(plan.trips, plan.trips.dropFirst()).allSatisfy { $0.endMs <= $1.startMs }, "trips never overlap")
        #expect(plan.trips.allSatisfy { $0.startMs >= 0 && $0.endMs <= plan.endMs })
    }

    @Test func familyWeekHasThreeDriversAndARealisticWeek() throws {
        let scenario = try SimFixture.shipped("family-week.scenario")
        #expect(scenario.drivers.map(\.name) == ["Anna", "Ben", "Cara"])
        #expect(scenario.drivers.filter { $0.beacon != nil }.count == 2)
        #expect(scenario.driver(named: "cara")?.beacon == nil)
        #expect(scenario.driver(named: "Anna")?.driverURI?.description == "fairfuel://driver/3f2a1b4c-5d6e-4f70-8192-a3b4c5d6e7f8")
        #expect(scenario.utcOffsetMinutes == 60)

        let plan = try SimPlanner.plan(scenario)
        #expect(plan.trips.count == 21)
        #expect(plan.trips.filter { !$0.tapped }.count == 2)  // the neighbour and Cara's forgotten tap
        #expect(plan.trips.contains { $0.drivers == ["Anna", "Cara"] })  // the swap on the way home
        #expect(plan.trips.contains { $0.distanceMeters > 50_000 })  // the motorway trip to grandma
        #expect(plan.refuels.count == 3)
        #expect(plan.refuels.map { $0.cost?.value } == [7249, 1005, 527])  // the baseline, then what the week burns
        #expect(plan.endMs == 6 * 86_400_000 + 13 * 3_600_000 + 30 * 60_000)  // Sunday 20:00 local
        // Every trip moves realistically: between 12 and 110 km/h on average.
        for trip in plan.trips where !(trip.endMs - trip.startMs > 3_600_000 && trip.distanceMeters < 20_000) {
            let kmh = trip.distanceMeters / Double(trip.endMs - trip.startMs) * 3600
            #expect(kmh > 12 && kmh < 110, "trip of line \(trip.line): \(kmh) km/h")
        }
        #expect(plan.tag(ofDriver: "cara")?.uid == [0x04, 0x5C, 0x19, 0xE2, 0x8A, 0x31, 0x90])
        #expect(plan.tag(ofDriver: "Ben")?.kind == .mifareClassic1K)
        // UTC follows the scenario's local time and offset.
        #expect(plan.trips[0].startUTC.iso8601 == "2026-03-02T06:35:20.000Z")
    }

    @Test func plansAreDeterministic() throws {
        let a = try SimPlanner.plan(try SimFixture.shipped("family-week.scenario"))
        let b = try SimPlanner.plan(try SimFixture.shipped("family-week.scenario"))
        #expect(a.trips == b.trips)
        #expect(a.refuels == b.refuels)
        #expect(a.tags == b.tags)
    }

    @Test func headerSettings() throws {
        let scenario = try SimFixture.inline("""
            title  Settings "check"   # a comment
            seed 42
            start 2026-07-01 23:30:15
            timezone -05:30
            gnss rate 10 Hz
            gnss sentences rmc gga vtg
            gnss talker GN
            gnss keep-alive always
            gnss ttff 2s
            mcu name "Bench MCU"
            mcu firmware 1.5.0
            mcu uptime 4294967000
            radio miss 2 %
            noise 0.25% bursts 3/min
            place home 48.1 11.5 range 12 m
            vehicle at 48.2 11.6
            driver Ben tag 04:11:22:33 beacon mac:C3:11:22:33:44:55 interval 250 ms power -65
            driver Dee tag felica 01:2E:44:55:66:77:88:99 beacon altbeacon:0102030405060708090a0b0c0d0e0f1011121314
            driver Eve uri fairfuel://driver/0f8fad5b-d9cb-469f-a165-70867728950e
            day 2026-07-02 thu
            00:10 tap Ben
            """)
        #expect(scenario.title == "Settings check")
        #expect(scenario.seed == 42)
        #expect(scenario.startSecondOfDay == 23 * 3600 + 30 * 60 + 15)
        #expect(scenario.utcOffsetMinutes == -330)
        #expect(scenario.gnss.rateHz == 10)
        #expect(scenario.gnss.sentences == [.rmc, .gga, .vtg])
        #expect(scenario.gnss.talker == "GN")
        #expect(scenario.gnss.keepAliveMs == nil)
        #expect(scenario.gnss.timeToFirstFixMs == 2000)
        #expect(scenario.mcu.name == "Bench MCU")
        #expect(scenario.mcu.firmware == (1, 5, 0))
        #expect(scenario.mcu.initialUptimeMs == 4_294_967_000)
        #expect(scenario.radio.missRate == 0.02)
        #expect(scenario.noise == LineNoiseSettings(byteErrorRate: 0.0025, garbageBurstsPerMinute: 3))
        #expect(scenario.place(named: "home")?.rangeMeters == 12)
        #expect(scenario.vehicleStart == .position(GeoPoint(latitude: 48.2, longitude: 11.6)))
        let ben = try #require(scenario.driver(named: "Ben"))
        #expect(ben.tag == SimTagSpec(kind: .mifareClassic1K, uid: [0x04, 0x11, 0x22, 0x33]))
        #expect(ben.beaconIntervalMs == 250)
        #expect(ben.beaconPowerDBm == -65)
        #expect(scenario.driver(named: "Dee")?.tag?.kind == .felica)
        // A URI without a tag gets an NTAG213 with a generated UID.
        #expect(scenario.driver(named: "Eve")?.tag == SimTagSpec(kind: .ntag213, uid: nil))
        // 00:10 on the next day is 39 min 45 s after the start.
        #expect(scenario.timeline.first?.timeMs == Int64(39 * 60_000 + 45_000))
    }

    @Test func tripLinesAndTheirDetails() throws {
        let scenario = try SimFixture.inline(SimFixture.header + """
            08:10 trip Anna to home motorway approach 30 s stay 2 min
            08:40 trip nobody rural 12.5 km
            09:30 trip Anna urban 4km tap-late 90 s
              stop light 40 s x3
              stop fuel 6 min at 2 km liters 40.5 cost 70.1
            """)
        guard case .trip(let first) = scenario.timeline[0].action,
            case .trip(let second) = scenario.timeline[1].action,
            case .trip(let third) = scenario.timeline[2].action
        else {
            Issue.record("expected three trips")
            return
        }
        #expect(first.route == .generated(kind: .motorway, lengthMeters: nil, destination: "home"))
        #expect(first.approachMs == 30_000)
        #expect(first.stayMs == 120_000)
        #expect(second.driver == nil)
        #expect(second.tap == .never)
        #expect(second.route == .generated(kind: .rural, lengthMeters: 12_500, destination: nil))
        #expect(third.tap == .late(ms: 90_000))
        #expect(third.stops.count == 4)
        #expect(third.stops[3] == SimStop(kind: .fuel(liters: 40.5, costMinorUnits: 7010), durationMs: 360_000, atMeters: 2000, line: 12))
    }

    /// One defect per input; the error names the line and says what is wrong.
    static let malformed: [(text: String, line: Int, fragment: String)] = [
        ("titel Oops", 1, "unknown directive 'titel'"),
        ("start 2026-02-30 08:00", 1, "not a valid YYYY-MM-DD date"),
        ("start 2026-03-02 25:00", 1, "not HH:MM"),
        ("timezone +1", 1, "not UTC or ±HH:MM"),
        ("gnss rate 3", 1, "1, 2, 5 or 10"),
        ("gnss sentences gga gsa", 1, "must include rmc"),
        ("place home 95 11", 1, "latitude 95.0 is out of range"),
        ("place 48.1 11.5", 1, "needs a name"),
        ("vehicle at nowhere", 1, "unknown place 'nowhere'"),
        ("driver Anna beacon ibeacon:not-a-uuid:1:2", 1, "beacon 'ibeacon:not-a-uuid:1:2'"),
        ("driver Anna tag ntag213 04:11:22", 1, "4 or 7 or 10 bytes, not 3"),
        ("driver Anna uri https://example.com", 1, "is not fairfuel://driver/<uuid>"),
        ("driver Anna\ndriver anna", 2, "declared twice"),
        ("driver Anna colour blue", 1, "unknown driver attribute 'colour'"),
        ("start 2026-03-02 08:00\nday 1\n07:00 reboot", 3, "before the scenario's start"),
        ("start 2026-03-02 08:00\nday 1\n09:00 reboot\n08:30 reboot", 4, "time goes backwards"),
        ("start 2026-03-02 08:00\n08:30 reboot", 2, "needs a 'day' line"),
        ("start 2026-03-02 08:00\nday 1 tue", 2, "is a mon, not a tue"),
        ("start 2026-03-02 08:00\nday 1\nseed 3", 3, "belongs in the header"),
        ("start 2026-03-02 08:00\nday 1\n08:30 trip Zed urban 3 km", 3, "unknown driver 'Zed'"),
        ("start 2026-03-02 08:00\ndriver Anna tag 04:11:22:33\nday 1\n08:30 trip Anna", 4, "needs a destination"),
        ("start 2026-03-02 08:00\ndriver Anna tag 04:11:22:33\nday 1\n08:30 trip Anna urban 3 parsecs", 4, "needs a unit (m, km)"),
        ("start 2026-03-02 08:00\ndriver Anna tag 04:11:22:33\nday 1\n08:30 trip Anna urban 3parsecs", 4, "unknown unit 'parsecs'"),
        ("start 2026-03-02 08:00\ndriver Anna tag 04:11:22:33\nday 1\n08:30 trip Anna urban 3 km\n  stop fuel liters 40", 5, "needs a duration"),
        ("start 2026-03-02 08:00\ndriver Anna tag 04:11:22:33\nday 1\n08:30 trip Anna urban 3 km\n  stop swap 2 min Ben", 5, "not a passenger"),
        ("start 2026-03-02 08:00\ndriver Anna tag 04:11:22:33\nday 1\n08:30 trip Anna urban 3 km\n  stop light 30 s cost 4.50", 5, "belong to fuel stops"),
        ("start 2026-03-02 08:00\ndriver Anna tag 04:11:22:33\nday 1\n08:30 trip Anna urban 3 km\n  stop fuel 5 min cost 4.505", 5, "not an amount"),
        ("start 2026-03-02 08:00\nday 1\n08:30 ignition maybe", 3, "expected on or off"),
        ("start 2026-03-02 08:00\nday 1\n08:30 noise 150 %", 3, "0 to 100 %"),
        ("start 2026-03-02 08:00\nday 1\n08:30 unplug", 3, "missing unplugged time"),
        ("start 2026-03-02 08:00\nday 1\n08:30 log loud hello", 3, "expected debug, info, warn or error"),
        ("start 2026-03-02 08:00\nday 1\n08:30 stranger unicorn for 2 min", 3, "unknown stranger kind 'unicorn'"),
        ("start 2026-03-02 08:00\nday 1\n08:30 fly", 3, "unknown command 'fly'"),
        ("mcu name \"unterminated", 1, "unterminated quoted text"),
        ("mcu name \"a name far longer than the thirty-two bytes\"", 1, "longer than 32 bytes"),
    ]

    @Test(arguments: 0..<malformed.count)
    func malformedInputIsRejectedWithItsLine(_ index: Int) {
        let (text, line, fragment) = Self.malformed[index]
        do {
            let scenario = try SimScenarioParser.parse(text, sourceName: "bad.scenario")
            _ = try SimPlanner.plan(scenario)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.line == line, "\(error)")
            #expect(error.description.contains(fragment), "\(error)")
            #expect(error.description.hasPrefix("bad.scenario:\(line): "))
        }
    }

    @Test func overlappingTripsAreRejectedByThePlanner() throws {
        let scenario = try SimFixture.inline(SimFixture.header + """
            08:10 trip Anna urban 10 km
            08:15 trip Anna urban 2 km
            """)
        #expect(throws: SimScenarioError.self) { try SimPlanner.plan(scenario) }
        do {
            _ = try SimPlanner.plan(scenario)
        } catch {
            #expect(error.line == 9)
            #expect(error.description.contains("before the trip of line 8 is over"))
        }
    }

    @Test func aMissingNMEALogNamesItsLine() throws {
        let scenario = try SimFixture.inline(SimFixture.header + "08:10 trip Anna nmea routes/missing.nmea\n")
        do {
            _ = try SimPlanner.plan(scenario)
            Issue.record("planned a trip from a missing log")
        } catch {
            #expect(error.line == 8)
            #expect(error.description.contains("missing.nmea"))
        }
    }

    @Test func aMissingFileIsAnErrorWithoutALine() {
        do {
            _ = try SimScenarioParser.load(path: "/nonexistent/dir/x.scenario")
            Issue.record("loaded a missing file")
        } catch {
            #expect(error.line == 0)
            #expect(error.description.hasPrefix("x.scenario: cannot open"))
        }
    }
}
