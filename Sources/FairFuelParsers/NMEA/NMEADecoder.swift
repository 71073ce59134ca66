/// Decodes sentences or text lines and counts what it skips; the counted face of `NMEAParser`.
public struct NMEADecoder: Sendable {
    public var parser: NMEAParser
    public private(set) var stats = NMEAStats()
    /// Why the last sentence that was not decoded was skipped (for logs).
    public private(set) var lastError: NMEAError?

    public init(configuration: NMEAConfiguration = NMEAConfiguration()) {
        parser = NMEAParser(configuration: configuration)
    }

    /// Decodes one sentence (from `$`/`!`, CR LF optional); nil when it is counted and skipped.
    public mutating func decode(_ sentence: Span<UInt8>) -> NMEASentence? {
        var hadChecksum = true
        do {
            let decoded = try parser.parse(sentence, hadChecksum: &hadChecksum)
            stats.sentences += 1
            stats.decoded += 1
            if !hadChecksum { stats.missingChecksum += 1 }
            return decoded
        } catch {
            if !hadChecksum { stats.missingChecksum += 1 }
            stats.count(error)
            lastError = error
            return nil
        }
    }

    /// Decodes one sentence held in an array slice, such as an `NMEAReport.sentence`.
    public mutating func decode(_ sentence: ArraySlice<UInt8>) -> NMEASentence? {
        decode(sentence.span)
    }

    /// Decodes the sentences of one text line and hands each decoded one to `body`.
    ///
    /// A line may end in CR; blank lines, `#` comments and lines without `$`/`!`
    /// count as ignored. Junk before the first `$`/`!` is skipped, a run of `$`
    /// counts as one, and a `$` inside a sentence starts a new one: the part
    /// before it is decoded if it ends in `*HH`, else counted as malformed
    /// (`.truncated`), as a byte-stream receiver would resynchronise. `truncated` (the reader cut the line) makes the
    /// last sentence of the line malformed.
    public mutating func decode(
        line: ArraySlice<UInt8>, truncated: Bool = false, _ body: (NMEASentence) -> Void
    ) {
        let bytes = line.span
        stats.lines += 1
        var end = bytes.count
        while end > 0 && (bytes[end &- 1] == 0x0D || bytes[end &- 1] == 0x0A) { end &-= 1 }
        var start = 0
        if end > 0 && bytes[0] != 0x23 {  // '#'
            while start < end && bytes[start] != 0x24 && bytes[start] != 0x21 { start &+= 1 }
        } else {
            start = end
        }
        guard start < end else {
            stats.ignoredLines += 1
            return
        }
        while start < end {
            while start &+ 1 < end && bytes[start] == 0x24 && bytes[start &+ 1] == 0x24 { start &+= 1 }
            var next = start &+ 1
            while next < end && bytes[next] != 0x24 { next &+= 1 }
            let cut = next < end ? next &- start < 4 || bytes[next &- 3] != 0x2A : truncated
            if cut {
                stats.count(.truncated)
                lastError = .truncated
            } else if let sentence = decode(bytes.extracting(start..<next)) {
                body(sentence)
            }
            start = next
        }
    }

    public mutating func resetStats() {
        stats = NMEAStats()
        lastError = nil
    }
}
