import FairFuelCore

/// Counters of an NMEA input; line noise is counted here, never thrown.
///
/// Every sentence ends in exactly one of `decoded`, `badChecksum`, `malformed`
/// and `unsupported`, so `sentences` is their sum (`isConsistent`).
/// `missingChecksum` counts sentences without `*HH` whatever became of them:
/// refused ones (the default) are also counted as malformed.
public struct NMEAStats: Hashable, Sendable {
    /// Text lines seen (text input only).
    public var lines = 0
    /// Text lines without any sentence: blank, `#` comments, binary junk.
    public var ignoredLines = 0
    /// Sentence candidates: from a `$` or `!` to the end of the line or the next `$`.
    public var sentences = 0
    public var decoded = 0
    public var badChecksum = 0
    public var malformed = 0
    /// Proprietary (`$P...`), AIS and other encapsulation (`!`), talkers that are not two letters, other formatters.
    public var unsupported = 0
    public var missingChecksum = 0

    public init() {}

    public var isConsistent: Bool {
        sentences == decoded + badChecksum + malformed + unsupported
            && missingChecksum <= sentences && ignoredLines <= lines
    }

    /// Counts one sentence that was not decoded.
    public mutating func count(_ error: NMEAError) {
        sentences += 1
        switch error.category {
        case .badChecksum: badChecksum += 1
        case .malformed: malformed += 1
        case .unsupported: unsupported += 1
        }
    }

    /// Adds `other`'s counts to these.
    public mutating func add(_ other: NMEAStats) {
        lines += other.lines
        ignoredLines += other.ignoredLines
        sentences += other.sentences
        decoded += other.decoded
        badChecksum += other.badChecksum
        malformed += other.malformed
        unsupported += other.unsupported
        missingChecksum += other.missingChecksum
    }

    /// `{"stats":{"sentences":N,"bad_checksum":N,"malformed":N,"unsupported":N,...}}`.
    public var jsonLine: String {
        var stats = JSONLine()
        stats.add("sentences", sentences)
        stats.add("bad_checksum", badChecksum)
        stats.add("malformed", malformed)
        stats.add("unsupported", unsupported)
        stats.add("missing_checksum", missingChecksum)
        stats.add("decoded", decoded)
        stats.add("lines", lines)
        stats.add("ignored_lines", ignoredLines)
        var line = JSONLine()
        line.addRaw("stats", json: stats.string)
        return line.string
    }

    /// The counters by their JSON names, in `jsonLine` order.
    public var named: [(name: String, value: Int)] {
        [
            ("sentences", sentences), ("bad_checksum", badChecksum), ("malformed", malformed),
            ("unsupported", unsupported), ("missing_checksum", missingChecksum),
            ("decoded", decoded), ("lines", lines), ("ignored_lines", ignoredLines),
        ]
    }
}
