import FairFuelCore
import FairFuelParsers
import Foundation

/// Namespace for NMEA suites whose type name does not say NMEA (so that
/// `swift test --filter NMEA` runs them all).
enum NMEATests {}

/// Fixture access and small builders shared by the NMEA tests.
enum NMEAFixtures {
    /// `Fixtures/nmea` inside the test bundle.
    static var directory: URL {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("nmea")
    }

    /// `Fixtures/nmea` in the source tree (for regenerating golden files).
    static var sourceDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/nmea")
    }

    static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(relativePath))
    }

    /// Relative paths (`gpsd/bu353s4.log`, `gpsd/mixed-binary/...`) of every gpsd log.
    static var gpsdLogs: [String] {
        var out: [String] = []
        for folder in ["gpsd", "gpsd/mixed-binary", "gpsd/ais"] {
            let url = directory.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            out += names.filter { $0.hasSuffix(".log") }.sorted().map { folder + "/" + $0 }
        }
        return out
    }

    /// The lines of `bytes` split at LF (CR kept, as the text reader hands them).
    static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var out: [ArraySlice<UInt8>] = []
        var start = 0
        for index in bytes.indices where bytes[index] == 0x0A {
            out.append(bytes[start..<index])
            start = index + 1
        }
        if start < bytes.count { out.append(bytes[start...]) }
        return out
    }

    /// Every fix and the stats of decoding `bytes` as a receiver's raw output
    /// (through the packet lexer, as `fairfuel nmea FILE` does).
    static func decode(
        _ bytes: [UInt8], configuration: NMEAConfiguration = NMEAConfiguration()
    ) -> (fixes: [GNSSFix], stats: NMEAStats, assembler: GNSSFixAssembler) {
        let (fixes, decoder) = stream(bytes, configuration: configuration)
        return (fixes, decoder.stats, decoder.assembler)
    }

    /// Every fix of `bytes` fed in one piece, and the decoder for its counters.
    static func stream(
        _ bytes: [UInt8], configuration: NMEAConfiguration = NMEAConfiguration()
    ) -> (fixes: [GNSSFix], decoder: NMEAFixDecoder) {
        var decoder = NMEAFixDecoder(configuration: configuration)
        var fixes: [GNSSFix] = []
        decoder.feed(bytes: bytes[...]) { fixes.append($0) }
        decoder.finish { fixes.append($0) }
        return (fixes, decoder)
    }

    /// Every fix and the stats of decoding `bytes` line by line (the text-line path).
    static func decodeLines(
        _ bytes: [UInt8], configuration: NMEAConfiguration = NMEAConfiguration()
    ) -> (fixes: [GNSSFix], stats: NMEAStats) {
        var decoder = NMEAFixDecoder(configuration: configuration)
        var fixes: [GNSSFix] = []
        for line in lines(bytes) {
            decoder.feed(line: line) { fixes.append($0) }
        }
        decoder.finish { fixes.append($0) }
        return (fixes, decoder.stats)
    }
}

/// `$` + body + `*HH` with the right checksum.
func nmea(_ body: String, delimiter: String = "$") -> String {
    var sum: UInt8 = 0
    for byte in body.utf8 { sum ^= byte }
    let hex = String(sum, radix: 16, uppercase: true)
    return delimiter + body + "*" + (hex.count == 1 ? "0" + hex : hex)
}

extension NMEAParser {
    /// Parses text (tests only).
    func parse(_ text: String) throws(NMEAError) -> NMEASentence {
        try parse(ArraySlice(Array(text.utf8)))
    }
}

/// The decoded sentence of `text`, or nil (with the error) when it is not decoded.
func decodeResult(_ text: String, configuration: NMEAConfiguration = NMEAConfiguration())
    -> Result<NMEASentence, NMEAError>
{
    let parser = NMEAParser(configuration: configuration)
    do throws(NMEAError) {
        return .success(try parser.parse(text))
    } catch {
        return .failure(error)
    }
}

/// Fixes assembled from whole sentences given as text.
func assembleFixes(_ sentences: [String], configuration: NMEAConfiguration = NMEAConfiguration()) -> [GNSSFix] {
    var decoder = NMEAFixDecoder(configuration: configuration)
    var fixes: [GNSSFix] = []
    for sentence in sentences {
        decoder.feed(sentence: ArraySlice(Array(sentence.utf8))) { fixes.append($0) }
    }
    decoder.finish { fixes.append($0) }
    return fixes
}

extension NMEASentence {
    var rmc: NMEARMC? { if case .rmc(let value) = self { value } else { nil } }
    var gga: NMEAGGA? { if case .gga(let value) = self { value } else { nil } }
    var gns: NMEAGNS? { if case .gns(let value) = self { value } else { nil } }
    var vtg: NMEAVTG? { if case .vtg(let value) = self { value } else { nil } }
    var gll: NMEAGLL? { if case .gll(let value) = self { value } else { nil } }
    var gsa: NMEAGSA? { if case .gsa(let value) = self { value } else { nil } }
    var gsv: NMEAGSV? { if case .gsv(let value) = self { value } else { nil } }
    var zda: NMEAZDA? { if case .zda(let value) = self { value } else { nil } }
}

/// `hh:mm:ss.sss` as a time of day.
func utcTime(_ hour: Int, _ minute: Int, _ second: Int, _ millisecond: Int = 0) -> UTCTimeOfDay {
    UTCTimeOfDay(hour: hour, minute: minute, second: second, millisecond: millisecond)!
}

func utcDay(_ year: Int, _ month: Int, _ day: Int) -> UTCDate {
    UTCDate(year: year, month: month, day: day)!
}

/// Whether `a` is within `tolerance` of `b` (both present or both nil).
func nearlyEqual(_ a: Double?, _ b: Double?, _ tolerance: Double = 1e-9) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case let (a?, b?): abs(a - b) <= tolerance
    default: false
    }
}
