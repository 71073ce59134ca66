/// NMEA (0x10): one sentence from the GNSS receiver, as the MCU read it.
public struct NMEAReport: Sendable, Equatable {
    public static let maximumSentenceBytes = 240

    /// MCU uptime when the sentence ended.
    public var mcuTimeMs: UInt32
    /// From the leading `$` or `!` up to, not including, CR LF; printable ASCII.
    public var sentence: ArraySlice<UInt8>

    public init(mcuTimeMs: UInt32, sentence: ArraySlice<UInt8>) {
        self.mcuTimeMs = mcuTimeMs
        self.sentence = sentence
    }

    public init(mcuTimeMs: UInt32, sentence: String) {
        self.init(mcuTimeMs: mcuTimeMs, sentence: ArraySlice(sentence.utf8))
    }

    /// The sentence as text (it is printable ASCII once delivered).
    public var sentenceText: String { String(decoding: sentence, as: UTF8.self) }

    static func parse(_ payload: ArraySlice<UInt8>) throws(PayloadError) -> NMEAReport {
        var reader = PayloadReader(payload, type: .nmea)
        try reader.requireLength(5, 4 + maximumSentenceBytes)
        let time = reader.u32()
        let sentence = reader.rest()
        let first = sentence[sentence.startIndex]
        guard first == UInt8(ascii: "$") || first == UInt8(ascii: "!") else {
            throw .sentenceBadStart(first)
        }
        for index in sentence.indices where sentence[index] < 0x20 || sentence[index] > 0x7E {
            throw .sentenceNotPrintable(byte: sentence[index], offset: index - sentence.startIndex)
        }
        return NMEAReport(mcuTimeMs: time, sentence: sentence)
    }

    func write(to writer: inout PayloadWriter) {
        writer.u32(mcuTimeMs)
        writer.append(sentence)
    }
}
