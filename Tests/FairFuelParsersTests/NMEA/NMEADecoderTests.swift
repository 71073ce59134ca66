import FairFuelParsers
import Testing

/// Text lines as the file reader hands them: CR kept, junk and comments around.
@Suite struct NMEADecoderTests {
    private func decodeLines(_ lines: [String], truncatedLast: Bool = false) -> ([NMEASentence], NMEAStats) {
        var decoder = NMEADecoder()
        var out: [NMEASentence] = []
        for (index, line) in lines.enumerated() {
            let truncated = truncatedLast && index == lines.count - 1
            decoder.decode(line: ArraySlice(Array(line.utf8)), truncated: truncated) { out.append($0) }
        }
        #expect(decoder.stats.isConsistent)
        return (out, decoder.stats)
    }

    @Test func crlfAndLF() {
        let (sentences, stats) = decodeLines(["$GPGSV,4,4,13,39,31,170,27*40\r", "$GPGSV,4,4,13,39,31,170,27*40"])
        #expect(sentences.count == 2 && sentences[0] == sentences[1])
        #expect(stats.lines == 2 && stats.sentences == 2 && stats.decoded == 2)
    }

    @Test func commentsBlankLinesAndJunkAreIgnored() {
        let (sentences, stats) = decodeLines([
            "# Name: Garmin 17N", "", "\r", "foobar", "\u{1B}[H\u{1B}[J", "{\"class\":\"TPV\"}",
            "$GPGSV,4,4,13,39,31,170,27*40",
        ])
        #expect(sentences.count == 1)
        #expect(stats.lines == 7 && stats.ignoredLines == 6 && stats.sentences == 1)
    }

    @Test func junkBeforeTheSentenceIsSkipped() {
        let (sentences, stats) = decodeLines(["\u{01}\u{02}xyz$GPGSV,4,4,13,39,31,170,27*40"])
        #expect(sentences.count == 1 && stats.ignoredLines == 0 && stats.sentences == 1)
    }

    @Test func repeatedDollarCountsOnce() {
        // ST Teseo LIV4F starts every sentence with $$.
        let (sentences, stats) = decodeLines(["$$GNGSA,A,3,44,34,25,11,19,23,38,,,,,,2.5,1.7,1.8,4*3E"])
        #expect(sentences.count == 1 && stats.sentences == 1 && stats.malformed == 0)
    }

    @Test func dollarInsideStartsANewSentence() {
        // isync: a cut GSV, then a whole proprietary sentence.
        let (cut, cutStats) = decodeLines(["$GPGSV,4,1,15,02,11,115,36,0$PTNTA,20160203131539,2,T4,000000066,+107,3,0,3*18"])
        #expect(cut.isEmpty)
        #expect(cutStats.sentences == 2 && cutStats.malformed == 1 && cutStats.unsupported == 1)
        #expect(cutStats.missingChecksum == 0)
        // Two whole sentences on one line.
        let (both, bothStats) = decodeLines(["$GPGSV,4,4,13,39,31,170,27*40$GPGSV,4,4,13*7B"])
        #expect(both.count == 2 && bothStats.decoded == 2)
    }

    @Test func truncatedLineMakesItsLastSentenceMalformed() {
        let (sentences, stats) = decodeLines(["$GPGSV,4,4,13,39,31,170,27*40"], truncatedLast: true)
        #expect(sentences.isEmpty && stats.malformed == 1)
    }

    @Test func lastErrorKeepsTheContext() {
        var decoder = NMEADecoder()
        decoder.decode(line: ArraySlice(Array("$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K*49".utf8))) { _ in }
        #expect(decoder.lastError == .badChecksum(expected: 0x48, actual: 0x49))
        decoder.resetStats()
        #expect(decoder.stats == NMEAStats() && decoder.lastError == nil)
    }

    @Test func statsJSON() {
        let (_, stats) = decodeLines(["# x", "$GPGSV,4,4,13*7B", "$GPGSV,4,4,13*7C", "$PGRME,1.7,M,2.4,M,3.0,M*2D", "$GPGSV,4,4"])
        #expect(
            stats.jsonLine
                == #"{"stats":{"sentences":4,"bad_checksum":1,"malformed":1,"unsupported":1,"missing_checksum":1,"decoded":1,"lines":5,"ignored_lines":1}}"#
        )
    }

    /// The same sentences whether they come as text lines or as link frames (no CR LF).
    @Test func linesAndFramesAgree() {
        let sentences = NMEATests.GNSSFixAssemblerTests.sample
        var fromLines = NMEAFixDecoder()
        var fromFrames = NMEAFixDecoder()
        var a: [GNSSFix] = []
        var b: [GNSSFix] = []
        for sentence in sentences {
            fromLines.feed(line: ArraySlice(Array((sentence + "\r").utf8))) { a.append($0) }
            fromFrames.feed(sentence: ArraySlice(Array(sentence.utf8))) { b.append($0) }
        }
        fromLines.finish { a.append($0) }
        fromFrames.finish { b.append($0) }
        #expect(a == b && a.count == 2)
        #expect(fromLines.stats.decoded == fromFrames.stats.decoded)
    }
}

extension NMEATests.GNSSFixAssemblerTests {
    static var sample: [String] {
        [rmc1, gga1, gsa1, vtg1, nmea("GPRMC,080002.00,A,4807.038,N,01131.000,E,10.0,45.5,201126,,,A")]
    }
}
