/// Bytes, text lines or framed sentences in, GNSS fixes out: an `NMEAStreamDecoder`
/// (packet lexer and sentence decoder) feeding a `GNSSFixAssembler`.
public struct NMEAFixDecoder: Sendable {
    public private(set) var stream: NMEAStreamDecoder
    public private(set) var assembler = GNSSFixAssembler()

    public init(
        configuration: NMEAConfiguration = NMEAConfiguration(),
        maximumPacketBytes: Int = GNSSPacketLexer.defaultMaximumPacketBytes
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
            while let sentence = stream.next() { assembler.add(sentence, emit: emit) }
        }
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
        while let sentence = stream.next() { assembler.add(sentence, emit: emit) }
        assembler.flush(emit: emit)
    }
}
