/// Text lines or framed sentences in, GNSS fixes out: an `NMEADecoder` feeding a `GNSSFixAssembler`.
public struct NMEAFixDecoder: Sendable {
    public private(set) var decoder: NMEADecoder
    public private(set) var assembler = GNSSFixAssembler()

    public init(configuration: NMEAConfiguration = NMEAConfiguration()) {
        decoder = NMEADecoder(configuration: configuration)
    }

    public var stats: NMEAStats { decoder.stats }

    /// Feeds one sentence (from `$`/`!`, CR LF optional), as the link codec delivers them.
    public mutating func feed(sentence: Span<UInt8>, emit: (GNSSFix) -> Void) {
        if let decoded = decoder.decode(sentence) { assembler.add(decoded, emit: emit) }
    }

    /// Feeds one sentence held in an array slice, such as `NMEAReport.sentence`.
    public mutating func feed(sentence: ArraySlice<UInt8>, emit: (GNSSFix) -> Void) {
        feed(sentence: sentence.span, emit: emit)
    }

    /// Feeds one text line (see `NMEADecoder.decode(line:truncated:_:)` for what a line may hold).
    public mutating func feed(line: ArraySlice<UInt8>, truncated: Bool = false, emit: (GNSSFix) -> Void) {
        decoder.decode(line: line, truncated: truncated) { sentence in
            assembler.add(sentence, emit: emit)
        }
    }

    /// Emits the last epoch; call at the end of input.
    public mutating func finish(emit: (GNSSFix) -> Void) {
        assembler.flush(emit: emit)
    }
}
