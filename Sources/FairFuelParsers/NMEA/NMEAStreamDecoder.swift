/// A receiver's raw byte stream (or the MCU's NMEA frames) in, decoded sentences
/// out: a `GNSSPacketLexer` feeding an `NMEADecoder`. Binary packets are counted
/// by the lexer; `nextItem()` also turns binary navigation solutions into fixes.
///
/// Pull-based so that callers may mutate their own state between sentences:
/// `feed` takes bytes, `next()` returns the next decoded sentence or nil when
/// the bytes fed so far hold no more; `markEnd()` ends a frame or a file.
public struct NMEAStreamDecoder: Sendable {
    public private(set) var lexer: GNSSPacketLexer
    public private(set) var decoder: NMEADecoder
    /// Pairs CASIC NAV-PV with NAV-TIMEUTC (`nextItem()` only).
    public private(set) var casic = CASICNavigationSolution()

    /// `maximumPacketBytes`, when given, overrides the configuration's.
    public init(configuration: NMEAConfiguration = NMEAConfiguration(), maximumPacketBytes: Int? = nil) {
        lexer = GNSSPacketLexer(maximumPacketBytes: maximumPacketBytes ?? configuration.maximumPacketBytes)
        decoder = NMEADecoder(configuration: configuration)
    }

    public var stats: NMEAStats { decoder.stats }
    public var lexerStats: GNSSLexerStats { lexer.stats }
    /// Why the last sentence that was not decoded was skipped.
    public var lastError: NMEAError? { decoder.lastError }

    /// Copies as many of `bytes` as fit and returns how many were taken; drain
    /// `next()` before feeding the rest.
    public mutating func feed(_ bytes: Span<UInt8>) -> Int {
        lexer.feed(bytes)
    }

    /// Ends a frame or the input: the pending bytes are decided by `next()`.
    public mutating func markEnd() {
        lexer.markEnd()
    }

    /// The next decoded sentence; nil when the bytes fed so far hold no more.
    /// Sentences that do not decode are counted in `stats`.
    public mutating func next() -> NMEASentence? {
        while let packet = lexer.next() {
            guard packet.kind == .nmea else { continue }
            if let sentence = lexer.withBytes(of: packet, { decoder.decode($0) }) { return sentence }
        }
        return nil
    }

    /// What the stream holds besides noise: a decoded sentence, or a fix from a
    /// binary navigation solution (UBX NAV-PVT, HNR-PVT; CASIC NAV-PV timed by NAV-TIMEUTC).
    public enum Item: Sendable {
        case sentence(NMEASentence)
        case fix(GNSSFix)
    }

    /// The next sentence or binary fix; nil when the bytes fed so far hold no more.
    public mutating func nextItem() -> Item? {
        while let packet = lexer.next() {
            switch packet.kind {
            case .nmea:
                if let sentence = lexer.withBytes(of: packet, { decoder.decode($0) }) { return .sentence(sentence) }
            case .ubx:
                if let fix = lexer.withBytes(of: packet, { UBXNavigationSolution.fix($0) }) { return .fix(fix) }
            case .casic:
                if let fix = lexer.withBytes(of: packet, { casic.add($0) }) { return .fix(fix) }
            case .sirf, .rtcm3, .garmin, .comment:
                continue
            }
        }
        return nil
    }

    /// Feeds one NMEA frame from the MCU (a sentence, CR LF optional) and ends it;
    /// drain `next()` afterwards. A frame longer than the lexer's buffer is cut.
    public mutating func feed(frame: Span<UInt8>) {
        _ = lexer.feed(frame)
        lexer.markEnd()
    }

    /// Calls `body` with every sentence decoded from `bytes` (any length; split as they come).
    public mutating func decode(_ bytes: Span<UInt8>, _ body: (NMEASentence) -> Void) {
        var start = 0
        while start < bytes.count {
            start += lexer.feed(bytes.extracting(start...))
            while let sentence = next() { body(sentence) }
        }
    }

    /// Decodes one whole sentence without the lexer (a caller that already split its input).
    public mutating func decode(sentence: Span<UInt8>) -> NMEASentence? {
        decoder.decode(sentence)
    }

    /// Decodes one text line without the lexer (see `NMEADecoder.decode(line:truncated:_:)`).
    public mutating func decode(line: ArraySlice<UInt8>, truncated: Bool = false, _ body: (NMEASentence) -> Void) {
        decoder.decode(line: line, truncated: truncated, body)
    }

    /// Ends the input and calls `body` with the sentences still pending.
    public mutating func finish(_ body: (NMEASentence) -> Void) {
        lexer.markEnd()
        while let sentence = next() { body(sentence) }
    }
}
