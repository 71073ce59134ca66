import ArgumentParser
import FairFuelCore
import FairFuelEdges
import FairFuelParsers

struct NMEACommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nmea",
        abstract: "Decode raw NMEA 0183 text into one GNSS fix per receiver epoch.",
        discussion: """
            Reads FILE: one sentence a line, CR LF or LF. Comment lines (#...),
            blank lines and binary junk are counted and skipped, as are sentences
            with a bad checksum, malformed or unsupported ones.
            With --json: one JSON object per fix ({"utc":...,"lat":...,"lon":...,
            "alt_m":...,"speed_mps":...,"course_deg":...,"mode":0-3,"sats":...,
            "hdop":...}), then a line with the counters ({"stats":{...}}).
            Without: a table.
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
        let reading = TextFileReader(path: file, maximumLineBytes: 64 * 1024).forEachLine { line, truncated in
            decoder.feed(line: line, truncated: truncated, emit: printFix)
            return true
        }
        if case .failure(let error) = reading { throw UserFacingError(error.description) }
        decoder.finish(emit: printFix)
        if json {
            print(decoder.stats.jsonLine)
        } else {
            print("")
            print(decoder.stats.named.map { "\($0.name) \($0.value)" }.joined(separator: "  "))
        }
    }
}
