import FairFuelCore
import FairFuelParsers
import Testing

extension NMEATests {
    @Suite struct GNSSFixAssemblerTests {
        static let rmc1 = nmea("GPRMC,080001.00,A,4807.038,N,01131.000,E,10.0,45.5,201126,,,A")
        static let gga1 = nmea("GPGGA,080001.00,4807.03812,N,01131.00034,E,1,08,0.9,545.4,M,46.9,M,,")
        static let gsa1 = nmea("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1")
        static let vtg1 = nmea("GPVTG,45.5,T,,M,10.0,N,18.5,K,A")

        static let expected = GNSSFix(
            utc: UTCTimestamp(date: utcDay(2026, 11, 20), time: utcTime(8, 0, 1)), timeOfDay: utcTime(8, 0, 1),
            latitude: 48 + 7.03812 / 60, longitude: 11 + 31.00034 / 60, altitude: Meters(545.4),
            speed: .knots(10), course: 45.5, mode: .fix3D, satellitesUsed: 8, hdop: 0.9)

        /// All 24 orders of RMC, GGA, GSA, VTG give the same fix: GGA's position and HDOP
        /// win over RMC's, RMC's speed over VTG's, whatever comes first.
        @Test func anyOrderGivesTheSameFix() {
            let sentences = [Self.rmc1, Self.gga1, Self.gsa1, Self.vtg1]
            for order in nmeaPermutations(of: Array(0..<4)) {
                let fixes = assembleFixes(order.map { sentences[$0] })
                #expect(fixes.count == 1, "\(order)")
                guard let fix = fixes.first else { continue }
                #expect(fix.utc == Self.expected.utc)
                #expect(nearlyEqual(fix.latitude, Self.expected.latitude, 1e-12) && nearlyEqual(fix.longitude, Self.expected.longitude, 1e-12))
                #expect(fix.altitude == Self.expected.altitude && fix.mode == .fix3D)
                #expect(nearlyEqual(fix.speed?.value, Self.expected.speed?.value, 1e-12) && fix.course == 45.5)
                #expect(fix.satellitesUsed == 8 && fix.hdop == 0.9, "\(order)")
            }
        }

        @Test func jsonLine() {
            let fix = assembleFixes([Self.rmc1, Self.gga1, Self.gsa1])[0]
            #expect(
                fix.jsonLine
                    == #"{"utc":"2026-11-20T08:00:01.000Z","lat":48.117302,"lon":11.516672333,"alt_m":545.4,"speed_mps":5.144,"course_deg":45.5,"mode":3,"sats":8,"hdop":0.9,"talker":"GP","derived":false}"#
            )
            let empty = GNSSFix()
            #expect(
                empty.jsonLine
                    == #"{"utc":null,"lat":null,"lon":null,"alt_m":null,"speed_mps":null,"course_deg":null,"mode":0,"sats":null,"hdop":null,"talker":null,"derived":false}"#
            )
        }

        @Test func oneFixPerEpochInTimeOrder() {
            let fixes = assembleFixes(cycles(count: 5, start: 80001))
            #expect(fixes.count == 5)
            #expect(fixes.map { $0.timeOfDay } == (1...5).map { utcTime(8, 0, $0) })
        }

        /// The cycle ender is trusted after two cycles that ended with it; from then on
        /// each fix is emitted by its epoch's last sentence, not by the next epoch.
        @Test func learnedCycleEnderEmitsWithoutWaiting() {
            var decoder = NMEAFixDecoder()
            var emittedAfter: [Int] = []
            let input = cycles(count: 4, start: 80001)  // RMC, GGA, GSA per cycle
            for (index, sentence) in input.enumerated() {
                decoder.feed(sentence: ArraySlice(Array(sentence.utf8))) { _ in emittedAfter.append(index) }
            }
            // Cycles 1 and 2 are emitted when the next cycle's RMC arrives (3, 6);
            // cycle 3 by its own GSA (8), and cycle 4 by its GSA (11).
            #expect(emittedAfter == [3, 6, 8, 11])
            #expect(decoder.assembler.cycleEnder == "GPGSA#1")
            var flushed = 0
            decoder.finish { _ in flushed += 1 }
            #expect(flushed == 0)
        }

        @Test func multipleGSAPerCycleAreToldApart() {
            var input: [String] = []
            for second in 1...4 {
                input.append(nmea("GNRMC,08000\(second).00,A,4807.038,N,01131.000,E,0.0,,201126,,,A"))
                input.append(nmea("GNGGA,08000\(second).00,4807.038,N,01131.000,E,1,09,0.9,545.4,M,46.9,M,,"))
                input.append(nmea("GNGSA,A,3,04,05,09,12,24,,,,,,,,2.5,1.3,2.1,1"))
                input.append(nmea("GNGSA,A,3,68,69,70,78,,,,,,,,,2.5,1.3,2.1,2"))
            }
            var decoder = NMEAFixDecoder()
            var emittedAfter: [Int] = []
            for (index, sentence) in input.enumerated() {
                decoder.feed(sentence: ArraySlice(Array(sentence.utf8))) { _ in emittedAfter.append(index) }
            }
            #expect(decoder.assembler.cycleEnder == "GNGSA#2")
            #expect(emittedAfter == [4, 8, 11, 15])
        }

        @Test func withoutGGASatellitesComeFromAllGSAs() {
            let fixes = assembleFixes([
                nmea("GNRMC,080001.00,A,4807.038,N,01131.000,E,0.0,,201126,,,A"),
                nmea("GNGSA,A,3,04,05,09,12,24,,,,,,,,2.5,1.3,2.1,1"),
                nmea("GNGSA,A,3,68,69,70,,,,,,,,,,2.5,1.3,2.1,2"),
            ])
            #expect(fixes.count == 1 && fixes[0].satellitesUsed == 8 && fixes[0].mode == .fix3D)
        }

        @Test func ggaBeforeAnyDateHasNoUTC() {
            let fixes = assembleFixes([
                nmea("GPGGA,080000.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
                nmea("GPGGA,080001.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
                nmea("GPRMC,080001.00,A,4807.038,N,01131.000,E,0.0,,201126,,,A"),
                nmea("GPGGA,080002.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            ])
            #expect(fixes.map { $0.utc?.iso8601 } == [nil, "2026-11-20T08:00:01.000Z", "2026-11-20T08:00:02.000Z"])
            #expect(fixes[0].timeOfDay == utcTime(8, 0, 0) && fixes[0].mode == .fix3D)
        }

        @Test func carriedDateRollsOverAtMidnight() {
            let fixes = assembleFixes([
                nmea("GPRMC,235959.50,A,4807.038,N,01131.000,E,0.0,,311226,,,A"),
                nmea("GPGGA,000000.50,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
                nmea("GPGGA,000001.50,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            ])
            #expect(fixes.map { $0.utc?.iso8601 } == [
                "2026-12-31T23:59:59.500Z", "2027-01-01T00:00:00.500Z", "2027-01-01T00:00:01.500Z",
            ])
        }

        @Test func zdaGivesTheCentury() {
            let fixes = assembleFixes([
                nmea("GPZDA,080001.00,20,11,2026,00,00"),
                nmea("GPGGA,080001.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            ])
            #expect(fixes.count == 1 && fixes[0].utc?.iso8601 == "2026-11-20T08:00:01.000Z")
        }

        @Test func rmcVoidIsNotTrusted() {
            let fixes = assembleFixes([nmea("GPRMC,080001.00,V,4807.038,N,01131.000,E,10.0,45.5,201126,,,N")])
            #expect(fixes.count == 1)
            let fix = fixes[0]
            #expect(fix.mode == .noFix && fix.latitude == nil && fix.speed == nil && fix.course == nil)
            #expect(fix.utc == nil && fix.timeOfDay == utcTime(8, 0, 1))
        }

        @Test(arguments: [
            // GSA says 2D with three satellites: 2D, though GGA holds an altitude.
            ([nmea("GPGGA,080001,4807.038,N,01131.000,E,1,03,2.5,545.4,M,46.9,M,,"), nmea("GPGSA,A,2,04,05,09,,,,,,,,,,2.7,2.5,1.0")], GNSSMode.fix2D),
            // Quectel says 2D with seven satellites and an altitude: 3D.
            ([nmea("GPGGA,080001,4807.038,N,01131.000,E,1,07,1.1,56.1,M,37.0,M,,"), nmea("GPGSA,A,2,06,07,11,19,22,28,30,,,,,,1.4,1.1,0.8,1")], .fix3D),
            ([nmea("GPGGA,080001,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")], .fix3D),
            ([nmea("GPGGA,080001,4807.038,N,01131.000,E,1,08,0.9,,M,,M,,")], .fix2D),
            ([nmea("GPGGA,080001,,,,,0,00,99.99,,,,,,")], .noFix),
            ([nmea("GPRMC,080001,A,4807.038,N,01131.000,E,0.0,,201126,,,A")], .fix2D),
            ([nmea("GPGLL,4807.038,N,01131.000,E,080001,A,A")], .fix2D),
            ([nmea("GPGLL,4807.038,N,01131.000,E,080001,V,N")], .noFix),
            ([nmea("GPZDA,080001.00,20,11,2026,00,00")], .noData),
            // GSA claims 3D but nothing gave a position: no fix.
            ([nmea("GPZDA,080001.00,20,11,2026,00,00"), nmea("GPGSA,A,3,04,05,09,12,,,,,,,,,2.5,1.3,2.1")], .noFix),
        ])
        func modeRules(sentences: [String], mode: GNSSMode) {
            let fixes = assembleFixes(sentences)
            #expect(fixes.count == 1 && fixes.first?.mode == mode, "\(sentences)")
            if let fix = fixes.first {
                #expect((fix.mode >= .fix2D) == (fix.latitude != nil))
            }
        }

        @Test func tenHertz() {
            var input: [String] = []
            for tenth in 0..<20 {
                let time = String(format: "08%02d%02d.%d0", 0, tenth / 10, tenth % 10)
                input.append(nmea("GPRMC,\(time),A,4807.038,N,01131.000,E,0.0,,201126,,,A"))
                input.append(nmea("GPGGA,\(time),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"))
            }
            let fixes = assembleFixes(input)
            #expect(fixes.count == 20)
            #expect(fixes.last?.utc?.iso8601 == "2026-11-20T08:00:01.900Z")
        }

        @Test func lateSentencesAreCountedNotMerged() {
            var input = cycles(count: 3, start: 80001)
            input.append(nmea("GPGLL,4807.038,N,01131.000,E,080003.00,A,A"))  // after cycle 3 was emitted by its GSA
            input.append(contentsOf: cycles(count: 1, start: 80004))
            var decoder = NMEAFixDecoder()
            var fixes: [GNSSFix] = []
            for sentence in input { decoder.feed(sentence: ArraySlice(Array(sentence.utf8))) { fixes.append($0) } }
            decoder.finish { fixes.append($0) }
            #expect(fixes.count == 4)
            #expect(decoder.assembler.lateSentences == 1)
            #expect(decoder.assembler.cycleEnder == nil)  // relearning
        }

        /// A receiver without a fix may leave every time field empty: still one fix per cycle.
        @Test func timelessCyclesAreSplit() {
            var input: [String] = []
            for _ in 0..<3 {
                input += ["$GPGGA,,,,,,0,,,,,,,,*66", "$GPRMC,,V,,,,,,,,,,N*53", "$GPVTG,,T,,M,,N,,K,N*2C", "$GPGSA,A,1,,,,,,,,,,,,,,,,*32"]
            }
            let fixes = assembleFixes(input)
            #expect(fixes.count == 3)
            #expect(fixes.allSatisfy { $0.mode == .noFix && $0.utc == nil && $0.timeOfDay == nil })
        }

        @Test func gsvAloneMakesNoFix() {
            #expect(assembleFixes(["$GPGSV,4,4,13,39,31,170,27*40"]).isEmpty)
        }

        private func cycles(count: Int, start: Int) -> [String] {
            (0..<count).flatMap { offset -> [String] in
                let time = String(format: "%06d.00", start + offset)
                return [
                    nmea("GPRMC,\(time),A,4807.038,N,01131.000,E,10.0,45.5,201126,,,A"),
                    nmea("GPGGA,\(time),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
                    nmea("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1"),
                ]
            }
        }
    }
}

func nmeaPermutations(of items: [Int]) -> [[Int]] {
    guard items.count > 1 else { return [items] }
    return items.indices.flatMap { index -> [[Int]] in
        var rest = items
        let first = rest.remove(at: index)
        return nmeaPermutations(of: rest).map { [first] + $0 }
    }
}
