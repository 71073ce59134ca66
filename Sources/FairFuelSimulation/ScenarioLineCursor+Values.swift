import FairFuelCore
import FairFuelParsers

/// The scenario format's words that are not quantities: places, times of day, dates, UTC
/// offsets and money.
extension ScenarioLineCursor {
    func point(_ latitude: Double, _ longitude: Double) throws(SimScenarioError) -> GeoPoint {
        guard (-85...85).contains(latitude) else { throw error("latitude \(latitude) is out of range (-85 to 85)") }
        guard (-180...180).contains(longitude) else { throw error("longitude \(longitude) is out of range") }
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
