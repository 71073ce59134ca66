@testable import FairFuelParsers
import Testing
import TestSupport

/// The word-at-a-time scan against a byte-at-a-time reference.
@Suite struct NMEAScanTests {
    typealias Scan = (sum: UInt8, commas: Int, addressEnd: Int, star: Int)

    static func reference(_ bytes: [UInt8], end: Int) -> Result<[Int], NMEAError> {
        var sum: UInt8 = 0
        var commas = 0
        var addressEnd = -1
        var star = -1
        for index in 1..<max(end, 1) {
            let byte = bytes[index]
            if byte == 0x2A {
                star = index
                break
            }
            guard byte >= 0x20 && byte <= 0x7E && byte != 0x24 else {
                return .failure(.badByte(offset: index, byte: byte))
            }
            sum ^= byte
            if byte == 0x2C {
                if addressEnd < 0 { addressEnd = index }
                commas += 1
            }
        }
        return .success([Int(sum), commas, addressEnd, star])
    }

    static func scanned(_ bytes: [UInt8], end: Int) -> Result<[Int], NMEAError> {
        do throws(NMEAError) {
            let scan = try NMEAParser.scan(bytes.span, end: end)
            return .success([Int(scan.sum), scan.commas, scan.addressEnd, scan.star])
        } catch {
            return .failure(error)
        }
    }

    @Test func agreesWithBytewiseReference() {
        var random = SeededGenerator(seed: 99)
        let alphabet = Array("ABCGPNRM0123456789.,,,,-*$\u{7F}\u{1F} ~".utf8) + [0x80, 0xFF, 0x00, 0x20, 0x7E]
        for _ in 0..<200_000 {
            let length = 1 + Int(random.next() % 90)
            var bytes = [UInt8](repeating: 0, count: length)
            bytes[0] = 0x24
            for index in 1..<length {
                // Mostly printable text, so that long runs reach the word loop.
                bytes[index] = random.next() % 8 == 0
                    ? alphabet[Int(random.next() % UInt64(alphabet.count))]
                    : UInt8(0x20 + random.next() % 0x5F)
            }
            let end = Int(random.next() % UInt64(length + 1))
            #expect(Self.scanned(bytes, end: end) == Self.reference(bytes, end: end), "\(bytes) end \(end)")
        }
    }

    @Test func everyBytePositionAndValue() {
        let base = Array("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,".utf8)
        for position in 1..<base.count {
            for value in 0...255 {
                var bytes = base
                bytes[position] = UInt8(value)
                #expect(Self.scanned(bytes, end: bytes.count) == Self.reference(bytes, end: bytes.count))
            }
        }
    }
}
