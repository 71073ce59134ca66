/// Checks and decodes single NMEA 0183 sentences; holds no state between sentences.
///
/// Input is one sentence from its `$` or `!` up to the end; trailing CR and LF
/// bytes are ignored. Checksum, framing and field split happen in one pass over
/// the bytes, fields are read by index ranges, and nothing is allocated.
public struct NMEAParser: Sendable {
    /// Longest sentence accepted, CR LF excluded. NMEA says 82 with CR LF; real
    /// receivers (u-blox high precision, Unicore, Skytraq) send up to about 130.
    public static let maximumSentenceBytes = 240

    public var configuration: NMEAConfiguration

    public init(configuration: NMEAConfiguration = NMEAConfiguration()) {
        self.configuration = configuration
    }

    /// Decodes one sentence or throws why it is not decoded.
    public func parse(_ sentence: Span<UInt8>) throws(NMEAError) -> NMEASentence {
        var hadChecksum = true
        return try parse(sentence, hadChecksum: &hadChecksum)
    }

    /// Decodes one sentence held in an array slice (as the link codec and text reader hand them).
    public func parse(_ sentence: ArraySlice<UInt8>) throws(NMEAError) -> NMEASentence {
        try parse(sentence.span)
    }

    /// Decodes one sentence; `hadChecksum` is set to false when it carries no `*HH`
    /// (then it is decoded only if the configuration allows it).
    public func parse(
        _ bytes: Span<UInt8>, hadChecksum: inout Bool
    ) throws(NMEAError) -> NMEASentence {
        var end = bytes.count
        while end > 0 && (bytes[unchecked: end &- 1] == 0x0D || bytes[unchecked: end &- 1] == 0x0A) { end &-= 1 }
        guard end > 0 else { throw .empty }
        guard end <= NMEAParser.maximumSentenceBytes else { throw .tooLong(length: end) }
        let delimiter = bytes[unchecked: 0]
        guard delimiter == 0x24 || delimiter == 0x21 else { throw .badStart(byte: delimiter) }

        let scan = try NMEAParser.scan(bytes, end: end)
        let sum = scan.sum
        let commas = scan.commas
        var addressEnd = scan.addressEnd
        let star = scan.star

        var dataEnd = end
        if star >= 0 {
            guard end &- star == 3,
                let high = NMEAFieldCursor.nibble(bytes[unchecked: star &+ 1]),
                let low = NMEAFieldCursor.nibble(bytes[unchecked: star &+ 2])
            else { throw .badChecksumField(offset: star) }
            let given = high << 4 | low
            guard given == sum else { throw .badChecksum(expected: sum, actual: given) }
            dataEnd = star
        } else {
            hadChecksum = false
            guard configuration.allowMissingChecksum else { throw .missingChecksum }
        }
        if addressEnd < 0 { addressEnd = dataEnd }

        // Proprietary sentences (`$P` + maker + anything) are not checked further.
        if delimiter == 0x24 && addressEnd > 1 && bytes[unchecked: 1] == 0x50 {
            throw .unsupported(NMEAAddress(bytes, 1..<addressEnd, delimiter: delimiter))
        }
        // Address: upper-case letters and digits; `$` + talker + formatter.
        var valid = addressEnd > 1
        for position in 1..<max(addressEnd, 1) {
            let byte = bytes[unchecked: position]
            if !((byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)) {
                valid = false
                break
            }
        }
        guard valid else { throw .badAddress(NMEAAddress(bytes, 1..<addressEnd, delimiter: delimiter)) }
        guard delimiter == 0x24, addressEnd == 6,
            let talker = NMEATalker(bytes[unchecked: 1], bytes[unchecked: 2]),
            let type = NMEASentenceType(bytes[unchecked: 3], bytes[unchecked: 4], bytes[unchecked: 5])
        else { throw .unsupported(NMEAAddress(bytes, 1..<addressEnd, delimiter: delimiter)) }

        let minimum = NMEASentenceTable.minimumFieldCount(type)
        guard commas >= minimum else { throw .tooFewFields(type, count: commas, minimum: minimum) }
        var fields = NMEAFieldCursor(
            type: type, start: addressEnd &+ 1, end: dataEnd, fieldCount: commas)
        return try NMEASentenceTable.parse(type, bytes, &fields, talker)
    }

    /// One pass over `bytes[1..<end]`, eight bytes at a time (SWAR: each test
    /// sets bit 7 of the bytes it matches): the XOR of the bytes
    /// before `*`, the number of commas, the first comma (address end, -1 if none)
    /// and the `*` (-1 if none). Throws at the first byte outside printable ASCII
    /// or a second `$`, with its offset.
    @inline(__always)
    static func scan(
        _ bytes: Span<UInt8>, end: Int
    ) throws(NMEAError) -> (sum: UInt8, commas: Int, addressEnd: Int, star: Int) {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        /// 0x80 in each byte of `word` equal to `value`.
        @inline(__always) func equal(_ word: UInt64, _ value: UInt8) -> UInt64 {
            let y = word ^ (ones &* UInt64(value))
            return ~(((y & lows) &+ lows) | y | lows)
        }
        var sumWord: UInt64 = 0
        var sum: UInt8 = 0
        var commas = 0
        var addressEnd = -1
        var star = -1
        var index = 1
        let raw = bytes.bytes
        while index &+ 8 <= end {
            let word = UInt64(littleEndian: raw.unsafeLoadUnaligned(fromByteOffset: index, as: UInt64.self))
            let low = word & lows
            let bad = (word & highs) | (~(low &+ 0x6060_6060_6060_6060) & highs) | ((low &+ ones) & highs)
            let stop = bad | equal(word, 0x2A) | equal(word, 0x24)
            var commaMask = equal(word, 0x2C)
            if stop != 0 {
                let keep = (UInt64(1) << UInt64(stop.trailingZeroBitCount & ~7)) &- 1
                sumWord ^= word & keep
                commaMask &= keep
                commas &+= commaMask.nonzeroBitCount
                if addressEnd < 0 && commaMask != 0 { addressEnd = index &+ commaMask.trailingZeroBitCount >> 3 }
                index &+= stop.trailingZeroBitCount >> 3
                let byte = bytes[unchecked: index]
                guard byte == 0x2A else { throw .badByte(offset: index, byte: byte) }
                star = index
                break
            }
            sumWord ^= word
            commas &+= commaMask.nonzeroBitCount
            if addressEnd < 0 && commaMask != 0 { addressEnd = index &+ commaMask.trailingZeroBitCount >> 3 }
            index &+= 8
        }
        if star < 0 {
            while index < end {
                let byte = bytes[unchecked: index]
                if byte &- 0x20 > 0x5E || byte == 0x24 || byte == 0x2A {
                    guard byte == 0x2A else { throw .badByte(offset: index, byte: byte) }
                    star = index
                    break
                }
                sum ^= byte
                if byte == 0x2C {
                    if addressEnd < 0 { addressEnd = index }
                    commas &+= 1
                }
                index &+= 1
            }
        }
        sumWord ^= sumWord >> 32
        sumWord ^= sumWord >> 16
        sumWord ^= sumWord >> 8
        return (sum ^ UInt8(truncatingIfNeeded: sumWord), commas, addressEnd, star)
    }
}
