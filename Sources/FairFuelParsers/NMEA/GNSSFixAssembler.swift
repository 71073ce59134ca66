import FairFuelCore

/// Merges decoded sentences into one `GNSSFix` per receiver epoch.
///
/// An epoch is the set of sentences with the same UTC time (RMC, GGA, GNS,
/// GLL, ZDA) plus the timeless ones (VTG, GSA, and timed types whose time field
/// is empty) that arrive while it is open; GSV is not part of a fix and is
/// ignored. While no time is known (a receiver without a fix may leave every
/// time field empty), a second RMC, GGA, GNS, GLL or ZDA starts a new epoch,
/// so such a receiver still yields one fix per cycle (with nil `utc`).
///
/// Each epoch's fix is emitted once:
/// - when the epoch is *complete*: its last sentence is the receiver's cycle
///   ender, learned as gpsd does: the sentence (type, talker and its number
///   within the epoch, so the third GNGSA is told from the first) that ended
///   the previous cycles, trusted once two cycles in a row ended with it;
/// - otherwise when a sentence of another time starts the next epoch;
/// - at `flush()`, at the end of input.
/// A sentence that arrives after its epoch was emitted early (one with the
/// same time, or a timeless one) is late: counted, not merged, and the learned
/// ender is dropped since it ended the cycle too early. Receivers that add a
/// sentence only every few cycles (rx210: GSA every 5 s) cause this; the
/// alternative, carrying the GSA into the next epoch, would give that epoch
/// an old fix type.
///
/// Timeless sentences are ambiguous at a cycle boundary: VTG or GSA between
/// two epochs may end one or start the next. Until an ender is learned they
/// join the open (earlier) epoch, and the learned ender then follows that
/// reading, as gpsd's does.
///
/// Date: the epoch's own RMC (valid fix) or ZDA date, else the last known
/// date carried forward, moved to the next day when the time of day wraps
/// past midnight (more than 12 hours backwards). Before any date is known,
/// `utc` is nil and only `timeOfDay` is set; RMC with status V is not trusted
/// for its date.
///
/// Speed and course: when an epoch with a position has no speed (no RMC or VTG
/// with one), they are derived from successive positions by `GNSSMotionDeriver`
/// (its rule: 0.9 s minimum step, 5 s maximum gap, 100 m/s jump limit, course only
/// for moves of 1 m or more) and the fix is marked `motionIsDerived`.
///
/// Nothing is allocated per sentence: the state is a few scalars.
public struct GNSSFixAssembler: Sendable {
    /// The epoch being merged.
    private var epoch = GNSSEpoch(time: nil)
    /// Time of the last epoch closed, to recognise late sentences.
    private var closedTime: UTCTimeOfDay?
    /// Key that ended the last closed cycle, and the trusted ender (0: none).
    private var candidateEnder: UInt32 = 0
    private var ender: UInt32 = 0
    /// Last known date, as days since 1970, and the time of day it was true for.
    private var dateAnchor: (days: Int64, time: Int32)?
    private var motion = GNSSMotionDeriver()

    /// Fixes emitted since init.
    public private(set) var fixCount = 0
    /// Sentences that arrived after their epoch's fix was emitted.
    public private(set) var lateSentences = 0

    public init() {}

    /// The learned cycle ender as text (`GNGSA#2`: the second GNGSA of the epoch), or nil while not learned.
    public var cycleEnder: String? {
        guard ender != 0 else { return nil }
        let type = NMEASentenceType(rawValue: UInt8(ender & 0xFF) - 1)!
        let talker = NMEATalker(packed: UInt16(ender >> 8 & 0xFFFF))!
        return "\(talker.code)\(type.code)#\(ender >> 24)"
    }

    /// Adds one decoded sentence; `emit` receives the fixes it completes (zero, one, rarely two).
    public mutating func add(_ sentence: NMEASentence, emit: (GNSSFix) -> Void) {
        if case .gsv = sentence { return }
        if let time = sentence.time {
            if let current = epoch.time {
                if time != current {
                    close(emit)
                    epoch = GNSSEpoch(time: time)
                } else if epoch.emitted {
                    return late()
                }
            } else if time == closedTime {
                return late()
            } else {
                epoch.time = time
            }
        } else if epoch.emitted {
            return late()
        } else if epoch.time == nil && sentence.type.carriesTime && epoch.count(of: sentence.type) > 0 {
            close(emit)
            epoch = GNSSEpoch(time: nil)
        }
        let key = GNSSFixAssembler.key(sentence, occurrence: epoch.occurrence(of: sentence.type))
        epoch.merge(sentence)
        epoch.lastKey = key
        if key == ender && epoch.time != nil { emitEpoch(emit) }
    }

    /// Emits the open epoch if it was not emitted yet; call at the end of input.
    public mutating func flush(emit: (GNSSFix) -> Void) {
        close(emit, learning: false)
        epoch = GNSSEpoch(time: nil)
    }

    /// Forgets everything but the counters (after the receiver was reset or replaced).
    public mutating func reset() {
        epoch = GNSSEpoch(time: nil)
        closedTime = nil
        candidateEnder = 0
        ender = 0
        dateAnchor = nil
        motion.reset()
    }

    private mutating func late() {
        lateSentences += 1
        candidateEnder = 0
        ender = 0
    }

    /// Emits the epoch if needed and, unless the input ended (the last cycle may be cut),
    /// learns its last sentence as the candidate cycle ender.
    private mutating func close(_ emit: (GNSSFix) -> Void, learning: Bool = true) {
        if !epoch.emitted && epoch.hasData { emitEpoch(emit) }
        if learning && epoch.time != nil {
            closedTime = epoch.time
            if epoch.lastKey != 0 {
                if epoch.lastKey == candidateEnder {
                    ender = candidateEnder
                } else {
                    candidateEnder = epoch.lastKey
                    ender = 0
                }
            }
        }
    }

    private mutating func emitEpoch(_ emit: (GNSSFix) -> Void) {
        epoch.emitted = true
        var carried: UTCDate?
        if let time = epoch.time {
            if let date = epoch.date {
                dateAnchor = (date.daysSinceEpoch, time.milliseconds)
            } else if let anchor = dateAnchor {
                var days = anchor.days
                let halfDay: Int32 = 43_200_000
                if time.milliseconds < anchor.time - halfDay {
                    days += 1
                } else if time.milliseconds > anchor.time + halfDay {
                    days -= 1
                }
                dateAnchor = (days, time.milliseconds)
                carried = UTCDate(daysSinceEpoch: days)
            }
        }
        fixCount += 1
        var fix = epoch.fix(date: carried)
        if let time = epoch.time, let latitude = fix.latitude, let longitude = fix.longitude {
            let derived = motion.observe(time: time, latitude: latitude, longitude: longitude)
            if fix.speed == nil, let derived {
                fix.speed = MetersPerSecond(derived.metersPerSecond)
                if fix.course == nil { fix.course = derived.course }
                fix.motionIsDerived = true
            }
        }
        emit(fix)
    }

    /// Type (8 bits), talker (16) and occurrence (8) packed: 0 never names a sentence.
    private static func key(_ sentence: NMEASentence, occurrence: UInt8) -> UInt32 {
        UInt32(sentence.type.rawValue) + 1 | UInt32(sentence.talker.packed) << 8
            | UInt32(occurrence) << 24
    }
}
