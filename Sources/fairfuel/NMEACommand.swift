import ArgumentParser
import FairFuelCore
import FairFuelEdges
import FairFuelParsers

struct NMEACommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nmea",
        abstract: "Decode a receiver's raw output (NMEA 0183 text, binary mixed in) into one GNSS fix per epoch.",
        discussion: """
            Reads FILE as a byte stream, through the same packet lexer and parser as
            the MCU's NMEA frames: sentences of any talker, with binary packets
            (u-blox UBX, CASIC, SiRF, RTCM 3, Garmin) counted, and skipped unless they
            are a navigation solution (UBX NAV-PVT or HNR-PVT, CASIC NAV-PV timed by
            NAV-TIMEUTC: a fix where no NMEA gives one), '#' comment lines and noise counted; sentences with a bad checksum,
            malformed or unsupported ones are counted and skipped.
            With --json: one JSON object per fix ({"utc":...,"lat":...,"lon":...,
            "alt_m":...,"speed_mps":...,"course_deg":...,"mode":0-3,"sats":...,
            "hdop":...,"talker":"GP","derived":false}; "derived" marks a speed and
            course computed from successive positions), then a line with the
            sentence counters ({"stats":{...}}) and one with the lexer's
            ({"lexer":{...}}). Without: a table (a derived speed ends in "~").
            """)

    @Argument(help: "The NMEA text file.")
    var file: String

    @Flag(help: "Print line-delimited JSON.")
    var json = false

    @Flag(help: "Accept sentences without a *HH checksum (some receivers omit it).")
    var allowMissingChecksum = false

    func run() throws {
        var decoder = NMEAFixDecoder(
            configuration: NMEAConfiguration(allowMissingChecksum: allowMissingChecksum))
        var printedHeader = json
        let printFix = { (fix: GNSSFix) in
            if !printedHeader {
                print(GNSSFix.tableHeader)
                printedHeader = true
            }
            print(json ? fix.jsonLine : fix.tableRow)
        }
        // Lines are only the reader's unit: each goes back to the lexer with its LF,
        // so the lexer sees the file's bytes as a serial port would deliver them
        // (a line over 64 KiB, which no receiver sends, loses its excess).
        let lineFeed: [UInt8] = [0x0A]
        let reading = TextFileReader(path: file, maximumLineBytes: 64 * 1024).forEachLine { line, _ in
            decoder.feed(bytes: line, emit: printFix)
            decoder.feed(bytes: lineFeed[...], emit: printFix)
            return true
        }
        if case .failure(let error) = reading { throw UserFacingError(error.description) }
        decoder.finish(emit: printFix)
        if json {
            print(decoder.stats.jsonLine)
            print(decoder.lexerStats.jsonLine)
        } else {
            print("")
            print(decoder.stats.named.map { "\($0.name) \($0.value)" }.joined(separator: "  "))
            print(decoder.lexerStats.named.map { "\($0.name) \($0.value)" }.joined(separator: "  "))
        }
    }
}
