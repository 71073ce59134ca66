import FairFuelCore

extension UTCDate {
    /// The year of a two-digit NMEA year: 80...99 are 1980...1999, 00...79 are 2000...2079.
    ///
    /// GPS began in 1980, so no receiver reports an earlier date; the pivot keeps
    /// old logs (1990s Garmin units) right until 2079.
    public static func year(twoDigit yy: Int) -> Int { yy >= 80 ? 1900 + yy : 2000 + yy }
}
