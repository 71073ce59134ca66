import FairFuelParsers

/// UTC milliseconds as a compact ISO 8601 stamp for file names, e.g. `20261121T081500Z`.
enum UTCStamp {
    static func compact(_ utcMs: Int64) -> String {
        let seconds = utcMs >= 0 ? utcMs / 1000 : (utcMs - 999) / 1000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let date = UTCDate(daysSinceEpoch: days)
        let (year, month, day) = (date.year, Int64(date.month), Int64(date.day))
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)\(two(month))\(two(day))T\(two(secondOfDay / 3600))\(two(secondOfDay / 60 % 60))\(two(secondOfDay % 60))Z"
    }
}
