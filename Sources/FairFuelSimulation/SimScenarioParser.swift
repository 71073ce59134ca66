import FairFuelCore
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

    /// Parses a scenario file's bytes, read from `path` by the caller (the simulation reads no
    /// file itself): errors name the file, and its NMEA logs are found beside it.
    public static func parse(fileBytes: [UInt8], path: String) throws(SimScenarioError) -> SimScenario {
        var directory = "."
        if let slash = path.lastIndex(of: "/") { directory = slash == path.startIndex ? "/" : String(path[..<slash]) }
        return try parse(String(decoding: fileBytes, as: UTF8.self), sourceName: fileName(path), baseDirectory: directory)
    }

    /// The last component of `path`, as errors name the file.
    public static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
