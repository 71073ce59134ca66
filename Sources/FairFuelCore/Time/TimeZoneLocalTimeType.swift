/// One local time of a zone: its UTC offset, whether it is daylight saving time, its abbreviation.
struct TimeZoneLocalTimeType: Sendable, Equatable {
    /// Seconds east of UTC.
    var offsetSeconds: Int
    var isDaylightSavingTime: Bool
    /// As the file or rule names it ("CEST", "+0530"), without the rule's `<` `>`.
    var abbreviation: String
}

/// `a + b`, held at the ends of Int64 instead of trapping (hostile files may carry extreme instants).
@inline(__always)
func timeZoneSaturatingAdd(_ a: Int64, _ b: Int64) -> Int64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? (b > 0 ? .max : .min) : sum
}

/// `a / b` rounded toward negative infinity (`b` > 0).
@inline(__always)
func timeZoneFloorDivide(_ a: Int64, _ b: Int64) -> Int64 {
    let quotient = a / b
    return (a % b != 0 && a < 0) ? quotient - 1 : quotient
}
