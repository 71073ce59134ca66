/// The talker of a sentence: the two letters after `$`.
///
/// Any two upper-case letters are accepted, as gpsd does for the sentences it
/// knows: GNSS receivers (`GP`, `GN`, ...) and marine instruments (`IN`
/// integrated navigation, `II` integrated instrumentation, `EC` ECDIS, `SD`
/// depth sounder, ...) that relay a position. Proprietary sentences (`$P...`)
/// never reach a talker.
public struct NMEATalker: Hashable, Sendable, CustomStringConvertible {
    /// The two ASCII letters, first in the high byte.
    public let packed: UInt16

    /// `GP`: GPS.
    public static let gps = NMEATalker(known: 0x47, 0x50)
    /// `GL`: GLONASS.
    public static let glonass = NMEATalker(known: 0x47, 0x4C)
    /// `GA`: Galileo.
    public static let galileo = NMEATalker(known: 0x47, 0x41)
    /// `GB`: BeiDou (NMEA 4.11 spelling).
    public static let beidou = NMEATalker(known: 0x47, 0x42)
    /// `BD`: BeiDou (older spelling).
    public static let beidouLegacy = NMEATalker(known: 0x42, 0x44)
    /// `GQ`: QZSS (NMEA 4.11 spelling).
    public static let qzss = NMEATalker(known: 0x47, 0x51)
    /// `QZ`: QZSS (older spelling).
    public static let qzssLegacy = NMEATalker(known: 0x51, 0x5A)
    /// `GI`: NavIC (IRNSS).
    public static let navic = NMEATalker(known: 0x47, 0x49)
    /// `GN`: a solution combining several constellations.
    public static let combined = NMEATalker(known: 0x47, 0x4E)
    /// `IN`: integrated navigation (a marine system relaying its position source).
    public static let integratedNavigation = NMEATalker(known: 0x49, 0x4E)
    /// `II`: integrated instrumentation.
    public static let integratedInstrumentation = NMEATalker(known: 0x49, 0x49)

    /// The talkers that name a satellite constellation (or a combination of them).
    public static let satelliteTalkers: [NMEATalker] = [
        .gps, .glonass, .galileo, .beidou, .beidouLegacy, .qzss, .qzssLegacy, .navic, .combined,
    ]

    /// The talker spelled by two ASCII upper-case letters, or nil.
    @inlinable
    public init?(_ first: UInt8, _ second: UInt8) {
        guard first &- 0x41 < 26, second &- 0x41 < 26 else { return nil }
        packed = UInt16(first) << 8 | UInt16(second)
    }

    private init(known first: UInt8, _ second: UInt8) {
        packed = UInt16(first) << 8 | UInt16(second)
    }

    /// The talker of `packed` (as `packed` gives it), or nil when it is not two upper-case letters.
    public init?(packed: UInt16) {
        self.init(UInt8(truncatingIfNeeded: packed >> 8), UInt8(truncatingIfNeeded: packed))
    }

    /// The constellation the talker names; nil for instruments (`IN`, `II`, `EC`, ...).
    public var constellation: GNSSConstellation? {
        switch packed {
        case NMEATalker.gps.packed: .gps
        case NMEATalker.glonass.packed: .glonass
        case NMEATalker.galileo.packed: .galileo
        case NMEATalker.beidou.packed, NMEATalker.beidouLegacy.packed: .beidou
        case NMEATalker.qzss.packed, NMEATalker.qzssLegacy.packed: .qzss
        case NMEATalker.navic.packed: .navic
        case NMEATalker.combined.packed: .multiple
        default: nil
        }
    }

    /// The two letters as sent.
    public var code: String {
        var text = ""
        text.unicodeScalars.append(Unicode.Scalar(UInt8(truncatingIfNeeded: packed >> 8)))
        text.unicodeScalars.append(Unicode.Scalar(UInt8(truncatingIfNeeded: packed)))
        return text
    }

    public var description: String { code }
}
