extension TimeZoneRules {
    /// The gap `localMs` falls in when no instant shows that wall time (which `utcMs(localMs:)`
    /// reads past the gap); nil when the time exists (in an overlap, it exists twice).
    public func gap(containingLocalMs localMs: Int64) -> WallClockGap? {
        let utc = utcMs(localMs: localMs)
        let shown = self.localMs(utcMs: utc)
        guard shown != localMs else { return nil }
        // Far out of range the conversions saturate: no gap is known there.
        let (offsetBefore, o1) = localMs.subtractingReportingOverflow(utc)
        let (offsetAfter, o2) = shown.subtractingReportingOverflow(utc)
        guard !o1, !o2, offsetAfter > offsetBefore else { return nil }
        let (start, o3) = utc.subtractingReportingOverflow(offsetAfter - offsetBefore)
        guard !o3 else { return nil }
        // The jump lies in (utc - (after - before), utc]: find the first millisecond with the new offset.
        var low = start
        var high = utc
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if Int64(offsetSeconds(atUTCMs: middle)) * 1000 == offsetAfter { high = middle } else { low = middle }
        }
        return WallClockGap(
            fromLocalMs: high + offsetBefore, toLocalMs: high + offsetAfter,
            offsetBeforeSeconds: Int(offsetBefore / 1000), offsetAfterSeconds: Int(offsetAfter / 1000))
    }
}
