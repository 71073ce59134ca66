/// A time zone's UTC offsets over time, from a TZif file (RFC 8536) or a POSIX TZ rule.
///
/// Instants before a file's first transition use local time type 0 (RFC 8536, section 3.2); instants
/// after its last transition use the footer's TZ rule when it has one (version 2 and later), else the
/// last transition's type. A file without transitions uses its footer rule throughout, else type 0.
/// Leap-second records are read past: the files in /usr/share/zoneinfo count no leap seconds (the
/// "right/" ones would, and are read as if they did not).
public struct TimeZoneRules: Sendable, Equatable {
    /// The IANA name given when built ("Europe/Berlin"), or "UTC".
    public let name: String
    /// Ascending, in seconds since 1970 UTC.
    let transitionsUTCSeconds: [Int64]
    /// Per transition, the index in `types` in force from it.
    let transitionTypeIndices: [UInt8]
    /// Never empty.
    let types: [TimeZoneLocalTimeType]
    /// After the last transition (or always, without transitions).
    let rule: TimeZonePosixRule?
    /// The largest |offset| of any type or of the rule: how far a wall clock can be from UTC here.
    let largestOffsetMagnitudeSeconds: Int64

    init(name: String, transitionsUTCSeconds: [Int64], transitionTypeIndices: [UInt8], types: [TimeZoneLocalTimeType], rule: TimeZonePosixRule?) {
        self.name = name
        self.transitionsUTCSeconds = transitionsUTCSeconds
        self.transitionTypeIndices = transitionTypeIndices
        self.types = types
        self.rule = rule
        var largest = types.map { Int64($0.offsetSeconds.magnitude) }.max() ?? 0
        if let rule {
            largest = max(largest, Int64(rule.standard.offsetSeconds.magnitude), Int64(rule.daylight?.type.offsetSeconds.magnitude ?? 0))
        }
        largestOffsetMagnitudeSeconds = largest
    }

    public static let utc = TimeZoneRules(
        name: "UTC", transitionsUTCSeconds: [], transitionTypeIndices: [],
        types: [TimeZoneLocalTimeType(offsetSeconds: 0, isDaylightSavingTime: false, abbreviation: "UTC")], rule: nil)

    /// A POSIX TZ rule such as "CET-1CEST,M3.5.0,M10.5.0/3", "<+0530>-5:30" or "<-03>3<-02>,M3.5.0/-2,M10.5.0/-1".
    ///
    /// Also `Jn` and `n` days, and RFC 8536's hours -167...167 in transition times. A daylight saving
    /// name without start and end rules ("EST5EDT") is refused.
    public init(name: String, posixRule: String) throws(TimeZoneError) {
        let rule = try TimeZonePosixRule(parsing: posixRule)
        self.init(name: name, transitionsUTCSeconds: [], transitionTypeIndices: [], types: [rule.standard], rule: rule)
    }

    /// Seconds east of UTC in force at this instant (Berlin in July: 7200).
    public func offsetSeconds(atUTCMs utcMs: Int64) -> Int {
        localType(atUTCSeconds: timeZoneFloorDivide(utcMs, 1000)).offsetSeconds
    }

    /// The abbreviation in force ("CEST"), as the file or rule names it.
    public func abbreviation(atUTCMs utcMs: Int64) -> String {
        localType(atUTCSeconds: timeZoneFloorDivide(utcMs, 1000)).abbreviation
    }

    /// Whether the local time in force at this instant is daylight saving time (TZif `isdst`).
    public func isDaylightSavingTime(atUTCMs utcMs: Int64) -> Bool {
        localType(atUTCSeconds: timeZoneFloorDivide(utcMs, 1000)).isDaylightSavingTime
    }

    /// utcMs + offset: milliseconds since 1970-01-01T00:00 of the local wall clock.
    public func localMs(utcMs: Int64) -> Int64 {
        timeZoneSaturatingAdd(utcMs, Int64(offsetSeconds(atUTCMs: utcMs)) * 1000)
    }

    /// The UTC instant a local wall-clock time names.
    ///
    /// In an overlap (autumn: the hour happens twice) the earlier instant. In a gap (spring: the hour
    /// does not exist) the wall time is read with the offset in force before the gap, so it lands after
    /// the gap by as much as it was into it: 02:30 in Berlin on the spring day gives 01:30 UTC, the
    /// instant 03:30 CEST (as java.time, Python's zoneinfo with fold=0 and POSIX mktime with tm_isdst -1
    /// mostly do).
    public func utcMs(localMs: Int64) -> Int64 {
        // Offsets and transitions are whole seconds: the second the wall time falls in decides.
        let offset = offsetForLocal(seconds: timeZoneFloorDivide(localMs, 1000))
        return timeZoneSaturatingAdd(localMs, -offset * 1000)
    }

    /// The offset to subtract from `localSeconds`: of the earliest period whose wall clock shows it, or
    /// of the period before the gap it falls in.
    private func offsetForLocal(seconds localSeconds: Int64) -> Int64 {
        // Any instant showing this wall time lies within the largest offset of it.
        let margin = largestOffsetMagnitudeSeconds + 1
        let windowStart = localSeconds - margin
        let windowEnd = localSeconds + margin
        let initial = localType(atUTCSeconds: windowStart)
        let changes = changes(after: windowStart, through: windowEnd)
        // Periods: [-inf, changes[0]) with `initial`, then [changes[i], changes[i+1]) with changes[i].type.
        var periodStart = Int64.min
        var periodOffset = Int64(initial.offsetSeconds)
        for change in changes {
            let candidate = localSeconds - periodOffset
            if candidate >= periodStart && candidate < change.instant { return periodOffset }
            periodStart = change.instant
            periodOffset = Int64(change.type.offsetSeconds)
        }
        if localSeconds - periodOffset >= periodStart { return periodOffset }
        // In a gap: the first change whose wall clock jumps over this time; read with the offset before it.
        var offsetBefore = Int64(initial.offsetSeconds)
        for change in changes {
            let offsetAfter = Int64(change.type.offsetSeconds)
            if timeZoneSaturatingAdd(change.instant, offsetBefore) <= localSeconds
                && localSeconds < timeZoneSaturatingAdd(change.instant, offsetAfter)
            {
                return offsetBefore
            }
            offsetBefore = offsetAfter
        }
        return Int64(localType(atUTCSeconds: localSeconds).offsetSeconds)
    }

    /// The local time type in force at `utcSeconds` (binary search in the table).
    func localType(atUTCSeconds utcSeconds: Int64) -> TimeZoneLocalTimeType {
        guard let lastTransition = transitionsUTCSeconds.last else { return rule?.localType(atUTCSeconds: utcSeconds) ?? types[0] }
        if utcSeconds > lastTransition, let rule { return rule.localType(atUTCSeconds: utcSeconds) }
        guard let index = lastTransitionIndex(atOrBefore: utcSeconds) else { return types[0] }
        return types[Int(transitionTypeIndices[index])]
    }

    /// The index of the last transition at or before `utcSeconds`; nil before the first.
    private func lastTransitionIndex(atOrBefore utcSeconds: Int64) -> Int? {
        var low = 0
        var high = transitionsUTCSeconds.count  // first index with a transition after utcSeconds is in low...high
        while low < high {
            let middle = low + (high - low) / 2
            if transitionsUTCSeconds[middle] <= utcSeconds { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    /// Every change of local time type in `(after, through]`, in order (some may not change the offset).
    func changes(after: Int64, through: Int64) -> [(instant: Int64, type: TimeZoneLocalTimeType)] {
        guard after < through else { return [] }
        var out: [(instant: Int64, type: TimeZoneLocalTimeType)] = []
        var ruleFrom = after
        if let lastTransition = transitionsUTCSeconds.last {
            var index = (lastTransitionIndex(atOrBefore: after) ?? -1) + 1
            while index < transitionsUTCSeconds.count && transitionsUTCSeconds[index] <= through {
                out.append((transitionsUTCSeconds[index], types[Int(transitionTypeIndices[index])]))
                index += 1
            }
            ruleFrom = max(after, lastTransition)
        }
        if let rule, ruleFrom < through {
            out.append(contentsOf: rule.changes(after: ruleFrom, through: through))
        }
        return out
    }
}
