import FairFuelCore

/// Bytes, text lines or framed sentences in, GNSS fixes out: an `NMEAStreamDecoder`
/// (packet lexer and sentence decoder) feeding a `GNSSFixAssembler`.
///
/// Raw bytes may also carry binary solutions (u-blox NAV-PVT, HNR-PVT; CASIC NAV-PV
/// with NAV-TIMEUTC, `CASICNavigationSolution`). NMEA is
/// preferred: a binary fix is used only when no NMEA sentence with a time within
/// 1.5 s of its own came (the receiver has NMEA turned off, or sends it at a lower
/// rate than its binary solutions), and only if it is newer than
/// the last binary fix (fixes stay in time order: a NAV-PVT that arrives after the
/// HNR-PVTs of later instants is dropped); an NMEA fix not newer than the last
/// binary one is dropped too. Dropped fixes are counted.
public struct NMEAFixDecoder: Sendable {
    public private(set) var stream: NMEAStreamDecoder
    public private(set) var assembler = GNSSFixAssembler()
    /// Binary fixes used, and fixes dropped by the rule above.
    public private(set) var binaryFixCount = 0
    public private(set) var droppedFixCount = 0
    /// Time of day (ms) of the last timed NMEA sentence, and of the last binary fix handed out.
    private var lastSentenceTime: Int32?
    private var lastBinaryFixTime: Int32?

    public init(
        configuration: NMEAConfiguration = NMEAConfiguration(),
        maximumPacketBytes: Int? = nil
    ) {
        stream = NMEAStreamDecoder(configuration: configuration, maximumPacketBytes: maximumPacketBytes)
    }

    public var decoder: NMEADecoder { stream.decoder }
    public var stats: NMEAStats { stream.stats }
    /// What the lexer saw of the bytes fed with `feed(bytes:)`.
    public var lexerStats: GNSSLexerStats { stream.lexerStats }

    /// Feeds raw receiver bytes (a file's content or a serial read, split anywhere):
    /// NMEA sentences among binary packets and noise, as `GNSSPacketLexer` splits them.
    public mutating func feed(bytes: Span<UInt8>, emit: (GNSSFix) -> Void) {
        var start = 0
        while start < bytes.count {
            start += stream.feed(bytes.extracting(start...))
            drain(emit)
        }
    }

    private mutating func drain(_ emit: (GNSSFix) -> Void) {
        while let item = stream.nextItem() {
            switch item {
            case .sentence(let sentence):
                if let time = sentence.time { lastSentenceTime = time.milliseconds }
                var merging = assembler  // a local copy: the callback updates the times below
                merging.add(sentence) { fix in emitSentenceFix(fix, emit) }
                assembler = merging
            case .fix(let fix):
                emitBinaryFix(fix, emit)
            }
        }
    }

    /// Milliseconds from `b` to `a` within ±12 h (a step across midnight counts forward).
    private static func difference(_ a: Int32, _ b: Int32) -> Int32 {
        var step = a - b
        if step > UTCTimeOfDay.millisecondsPerDay / 2 { step -= UTCTimeOfDay.millisecondsPerDay }
        if step < -UTCTimeOfDay.millisecondsPerDay / 2 { step += UTCTimeOfDay.millisecondsPerDay }
        return step
    }

    private mutating func emitSentenceFix(_ fix: GNSSFix, _ emit: (GNSSFix) -> Void) {
        if let time = fix.timeOfDay?.milliseconds, let binary = lastBinaryFixTime,
            NMEAFixDecoder.difference(time, binary) <= 0
        {
            droppedFixCount += 1
            return
        }
        emit(fix)
    }

    private mutating func emitBinaryFix(_ fix: GNSSFix, _ emit: (GNSSFix) -> Void) {
        guard let time = fix.timeOfDay?.milliseconds else { return }
        if let sentence = lastSentenceTime, abs(NMEAFixDecoder.difference(time, sentence)) <= 1500 {
            droppedFixCount += 1
            return
        }
        if let binary = lastBinaryFixTime, NMEAFixDecoder.difference(time, binary) <= 0 {
            droppedFixCount += 1
            return
        }
        lastBinaryFixTime = time
        binaryFixCount += 1
        emit(fix)
    }

    /// Feeds raw receiver bytes held in an array slice.
    public mutating func feed(bytes: ArraySlice<UInt8>, emit: (GNSSFix) -> Void) {
        feed(bytes: bytes.span, emit: emit)
    }

    /// Feeds one sentence (from `$`/`!`, CR LF optional), as the link codec delivers them.
    public mutating func feed(sentence: Span<UInt8>, emit: (GNSSFix) -> Void) {
        if let decoded = stream.decode(sentence: sentence) { assembler.add(decoded, emit: emit) }
    }

    /// Feeds one sentence held in an array slice, such as `NMEAReport.sentence`.
    public mutating func feed(sentence: ArraySlice<UInt8>, emit: (GNSSFix) -> Void) {
        feed(sentence: sentence.span, emit: emit)
    }

    /// Feeds one text line (see `NMEADecoder.decode(line:truncated:_:)` for what a line may hold).
    public mutating func feed(line: ArraySlice<UInt8>, truncated: Bool = false, emit: (GNSSFix) -> Void) {
        stream.decode(line: line, truncated: truncated) { sentence in
            assembler.add(sentence, emit: emit)
        }
    }

    /// Decides the bytes still pending in the lexer and emits the last epoch; call at the end of input.
    public mutating func finish(emit: (GNSSFix) -> Void) {
        stream.markEnd()
        drain(emit)
        var merging = assembler
        merging.flush { fix in emitSentenceFix(fix, emit) }
        assembler = merging
    }
}
