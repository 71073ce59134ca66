import FairFuelParsers
import Testing

/// The sentence scanner reads eight bytes at a time with an unaligned little-endian load
/// (`NMEAParser.scan`). On a big-endian host, or one that faults on unaligned loads, the
/// checksum, the comma count and the error offsets would come out wrong: these tests pin
/// them to a byte-by-byte reading, with the sentence at every alignment.
@Suite struct NMEAWordScanPortabilityTests {
    /// Bodies of several lengths, so the word loop ends at every byte of its last word.
    static let bodies = [
        "GPRMC,080001.00,A,4807.038,N,01131.000,E,10.0,45.5,201126,,,A",
        "GNGGA,080001.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
        "GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1",
        "GPVTG,45.5,T,,M,10.0,N,18.5,K,A",
        "GPGLL,4807.038,N,01131.000,E,080001.00,A,A",
    ]

    /// `text` copied into a buffer after `offset` filler bytes, as a slice of it.
    static func placed(_ text: String, at offset: Int) -> ArraySlice<UInt8> {
        let buffer = [UInt8](repeating: 0x55, count: offset) + Array(text.utf8) + [0x0D, 0x0A, 0xAA, 0xAA]
        return buffer[offset..<(offset + text.utf8.count + 2)]
    }

    @Test(arguments: bodies)
    func decodesTheSameAtEveryAlignment(body: String) throws {
        let parser = NMEAParser()
        let reference = try parser.parse(Self.placed(nmea(body), at: 0))
        for offset in 1..<16 {
            #expect(try parser.parse(Self.placed(nmea(body), at: offset)) == reference, "offset \(offset)")
        }
    }

    /// The checksum the word loop computes equals a plain XOR of the bytes, whatever the alignment.
    @Test(arguments: bodies)
    func checksumMatchesAByteByByteXOR(body: String) throws {
        var sum: UInt8 = 0
        for byte in body.utf8 { sum ^= byte }
        let wrong = sum ^ 0x01
        let hex = String(wrong, radix: 16, uppercase: true)
        let text = "$" + body + "*" + (hex.count == 1 ? "0" + hex : hex)
        for offset in 0..<8 {
            let error = #expect(throws: NMEAError.self) { try NMEAParser().parse(Self.placed(text, at: offset)) }
            #expect(error == .badChecksum(expected: sum, actual: wrong), "offset \(offset)")
        }
    }

    /// A bad byte is reported at its own offset whichever byte of a word it falls on.
    @Test func badByteOffsetIsExactInEveryLaneOfAWord() {
        let body = "GPRMC,080001.00,A,4807.038,N,01131.000,E,10.0,45.5,201126,,,A"
        for position in 1..<24 {
            var bytes = Array(nmea(body).utf8)
            bytes[position] = 0x07
            let text = String(decoding: bytes, as: UTF8.self)
            for offset in [0, 3, 5] {
                let error = #expect(throws: NMEAError.self) { try NMEAParser().parse(Self.placed(text, at: offset)) }
                #expect(error == .badByte(offset: position, byte: 0x07), "position \(position) offset \(offset)")
            }
        }
    }
}
