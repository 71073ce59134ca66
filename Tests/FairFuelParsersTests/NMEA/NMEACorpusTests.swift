import FairFuelParsers
import Foundation
import Testing

/// The real-world corpus: gpsd's regression logs (every log decodes without a
/// crash, fixes agree with gpsd's TPV reports, output matches the reviewed
/// golden `*.log.ffchk`) and the minmea/pynmea2 checksum vectors.
/// Disagreements are explained in `Fixtures/nmea/AGREEMENT.md`.
@Suite struct NMEACorpusTests {
    /// Logs whose disagreements with gpsd are investigated and documented in
    /// AGREEMENT.md, with the epochs that must still agree. Every other text log
    /// with gpsd TPVs must agree on every epoch.
    static let documentedFloors: [String: Int] = [
        "gpsd/foretrex-201.log": 0,  // of 6: GSA 2D with 3 satellites
        "gpsd/garmin-10x.log": 11,  // of 13: 3 satellites
        "gpsd/garmin25lp.log": 1,  // of 10: 3 satellites
        "gpsd/garmin48.log": 1,  // of 8: GLL-only epochs, gpsd carries speed and 3D
        "gpsd/gp-320fw-2019-04-07-coldboot.log": 8,  // of 9: gpsd's no-fix report reuses the last time
        "gpsd/hemi.log": 103,  // of 118: GGA quality 1 with 0 satellites
        "gpsd/iTrek.log": 26,  // of 35: RMC-only epochs, gpsd carries GSA's 3D
        "gpsd/motorola-t805.log": 13,  // of 17: 3 satellites
        "gpsd/mr-350p.log": 12,  // of 13: first epoch, gpsd has no dated fix to derive speed from
        "gpsd/oncore.log": 1,  // of 7: 3 satellites
        "gpsd/quectel.log": 33,  // of 34: no-fix report reuses the last time
        "gpsd/sl869.log": 6,  // of 8: 3 satellites
        "gpsd/tcp-test.log": 0,  // of 1: GGA's 5 decimals kept over RMC's 4
        "gpsd/udp-test.log": 0,  // of 1: same
        "gpsd/ublox-lea-4h.log": 9,  // of 14: 3 satellites, no-fix time reuse, lone ZDA at the start
        "gpsd/ublox-lea-5h.log": 17,  // of 19: derived speed, lone RMC at the end
        "gpsd/unicore-um621.log": 19,  // of 20: no-fix report reuses the last time
        "gpsd/mixed-binary/ac12_binary.log": 1,  // of 5: gpsd's TPVs from Ashtech PASHR; 3 satellites
        // of 189: UBX only; gpsd's last word at whole seconds is the NAV-PVT that comes 0.4 s
        // after the HNR-PVTs of later instants, which FairFuel drops to keep fixes in time order
        "gpsd/mixed-binary/ublox-neo-m8l.log": 171,
        // of 8: 2 UBX-only epochs within 1.5 s of NMEA ones (NMEA preferred); 1 GGA precision
        "gpsd/mixed-binary/ublox8-uniqid-monhw.log": 5,
    ]

    /// Logs with binary protocol frames mixed in (tallied apart, held to the floors above).
    static func isBinary(_ log: String) -> Bool { log.contains("mixed-binary/") }

    /// Overall agreement over the text logs.
    static let overallFloor = 0.90

    /// Agreement over every log, binary ones included, with the issue's tolerances
    /// (1e-6 degree, 0.01 m/s; #14 asks for 95 % overall).
    static let looseOverallFloor = 0.95

    @Test func agreementWithGPSD() throws {
        var total = GPSDAgreement.Tally()
        var binary = GPSDAgreement.Tally()
        var loose = GPSDAgreement.Tally()
        for log in NMEAFixtures.gpsdLogs {
            guard let chk = try? NMEAFixtures.data(log + ".chk") else { continue }
            let (fixes, _, _) = NMEAFixtures.decode([UInt8](try NMEAFixtures.data(log)))
            let agreement = GPSDAgreement(log: log, chk: chk, fixes: fixes)
            let looseAgreement = GPSDAgreement(
                log: log, chk: chk, fixes: fixes, degreeTolerance: GPSDAgreement.looseDegreeTolerance,
                speedTolerance: GPSDAgreement.looseSpeedTolerance)
            loose.add(looseAgreement)
            print(agreement)
            for example in agreement.examples { print("    " + example) }
            if Self.isBinary(log) {
                binary.add(agreement)
            } else {
                total.add(agreement)
            }
            if let floor = Self.documentedFloors[log] {
                #expect(agreement.matched >= floor, "\(agreement)")
                #expect(agreement.matched < agreement.epochs, "\(log) now agrees fully: drop it from the floors and AGREEMENT.md")
            } else {
                #expect(agreement.matched == agreement.epochs, "\(agreement)")
            }
        }
        var all = total
        all.add(binary)
        print("text logs:    \(total)")
        print("binary logs:  \(binary)")
        print("all logs:     \(all)")
        print("all logs, 1e-6 deg / 0.01 m/s: \(loose)")
        #expect(total.epochs > 1500)
        #expect(total.ratio >= Self.overallFloor, "\(total)")
        #expect(loose.ratio >= Self.looseOverallFloor, "\(loose)")
    }

    @Test(arguments: NMEAFixtures.gpsdLogs)
    func everyLogDecodesWithConsistentCounters(log: String) throws {
        let bytes = [UInt8](try NMEAFixtures.data(log))
        let (fixes, decoder) = NMEAFixtures.stream(bytes)
        let stats = decoder.stats
        #expect(stats.isConsistent)
        #expect(decoder.lexerStats.isConsistent && decoder.lexerStats.bytes == bytes.count, "\(decoder.lexerStats)")
        #expect(decoder.lexerStats.nmea == stats.sentences)
        let (_, lineStats) = NMEAFixtures.decodeLines(bytes)
        #expect(lineStats.isConsistent && lineStats.lines == NMEAFixtures.lines(bytes).count)
        for fix in fixes {
            #expect((fix.mode >= .fix2D) == (fix.latitude != nil))
        }
        if log.contains("/ais/") {
            #expect(fixes.isEmpty && stats.decoded == 0 && stats.unsupported == stats.sentences)
        }
    }

    /// Golden files: FairFuel's own decode of each log, reviewed as code.
    /// Regenerate with `FAIRFUEL_REGENERATE_GOLDEN=1 swift test --filter NMEACorpusTests`.
    @Test func goldenOutput() throws {
        let regenerate = ProcessInfo.processInfo.environment["FAIRFUEL_REGENERATE_GOLDEN"] == "1"
        var compared = 0
        let logs = NMEAFixtures.gpsdLogs + SyntheticFixtures.names.map { "synthetic/" + $0 }
        for log in logs {
            let (fixes, decoder) = NMEAFixtures.stream([UInt8](try NMEAFixtures.data(log)))
            var text = ""
            for fix in fixes { text += fix.jsonLine + "\n" }
            text += decoder.stats.jsonLine + "\n"
            text += decoder.lexerStats.jsonLine + "\n"
            if regenerate {
                let url = NMEAFixtures.sourceDirectory.appendingPathComponent(log + ".ffchk")
                try text.write(to: url, atomically: true, encoding: .utf8)
                continue
            }
            let golden = try String(decoding: NMEAFixtures.data(log + ".ffchk"), as: UTF8.self)
            #expect(golden == text, "\(log): output differs from \(log).ffchk; review and regenerate")
            compared += 1
        }
        #expect(regenerate || compared == logs.count)
    }

    struct Vector: CustomTestStringConvertible, Sendable {
        var source: String
        var verdict: String
        var sentence: [UInt8]
        var testDescription: String { "\(source) \(verdict) \(String(decoding: sentence, as: UTF8.self).debugDescription)" }
    }

    static func vectors(_ path: String) -> [Vector] {
        guard let data = try? NMEAFixtures.data(path) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").dropFirst().compactMap { row in
            let columns = row.split(separator: "\t", omittingEmptySubsequences: false)
            guard columns.count >= 4 else { return nil }
            let text = columns[3...].joined(separator: "\t")
            return Vector(source: "\(path.split(separator: "/")[0]) \(columns[0]):\(columns[1])", verdict: String(columns[2]), sentence: unescape(text))
        }
    }

    /// `\r`, `\n`, `\xHH` and `\\` as written in the vector files.
    static func unescape(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\") && index + 1 < bytes.count {
                switch bytes[index + 1] {
                case UInt8(ascii: "r"): out.append(0x0D); index += 2; continue
                case UInt8(ascii: "n"): out.append(0x0A); index += 2; continue
                case UInt8(ascii: "\\"): out.append(0x5C); index += 2; continue
                case UInt8(ascii: "x") where index + 3 < bytes.count:
                    if let value = UInt8(String(decoding: bytes[index + 2...index + 3], as: UTF8.self), radix: 16) {
                        out.append(value)
                        index += 4
                        continue
                    }
                default: break
                }
            }
            out.append(bytes[index])
            index += 1
        }
        return out
    }

    @Test(arguments: vectors("minmea/vectors.tsv") + vectors("pynmea2/vectors.tsv"))
    func upstreamChecksumVerdicts(vector: Vector) {
        var strict = NMEADecoder()
        var lenient = NMEADecoder(configuration: NMEAConfiguration(allowMissingChecksum: true))
        let decoded = strict.decode(ArraySlice(vector.sentence)) != nil
        _ = lenient.decode(ArraySlice(vector.sentence))
        let error = strict.lastError
        switch vector.verdict {
        case "ok":
            #expect(strict.stats.badChecksum == 0 && strict.stats.missingChecksum == 0)
            if !decoded { #expect(error?.category == .unsupported || error.isContentError || error.isTooLong, "\(String(describing: error))") }
        case "bad":
            #expect(strict.stats.badChecksum == 1 || error.isBadByte, "\(String(describing: error))")
        case "none":
            #expect(error == .missingChecksum || error.isBadByte, "\(String(describing: error))")
            #expect(lenient.stats.badChecksum == 0)
        case "malformed":
            #expect(strict.stats.malformed == 1, "\(String(describing: error))")
        default:
            Issue.record("unknown verdict \(vector.verdict)")
        }
    }

    /// Every "ok" vector of a supported type decodes. (pynmea2's 378-byte `$PUBX,03`
    /// is over the 240-byte limit: malformed here, and proprietary anyway.)
    @Test func supportedUpstreamVectorsDecode() {
        var failures: [String] = []
        for vector in Self.vectors("minmea/vectors.tsv") + Self.vectors("pynmea2/vectors.tsv") where vector.verdict == "ok" {
            var decoder = NMEADecoder()
            if decoder.decode(ArraySlice(vector.sentence)) == nil, decoder.lastError?.category != .unsupported,
                !decoder.lastError.isTooLong
            {
                failures.append("\(vector.testDescription): \(decoder.lastError!)")
            }
        }
        #expect(failures.isEmpty, "\(failures)")
    }
}

extension Optional where Wrapped == NMEAError {
    /// A byte that may not appear: such sentences are malformed before any checksum verdict.
    var isBadByte: Bool {
        if case .badByte = self { return true }
        return false
    }

    var isTooLong: Bool {
        if case .tooLong = self { return true }
        return false
    }

    var isContentError: Bool {
        switch self {
        case .badField, .tooFewFields, .tooManyFields: true
        default: false
        }
    }
}
