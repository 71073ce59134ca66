import FairFuelEdges
import Testing

/// HMAC-SHA256 against RFC 4231's test vectors.
@Suite struct HMACSHA256Tests {
    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    @Test(arguments: [
        // Test case 1.
        ([UInt8](repeating: 0x0B, count: 20), Array("Hi There".utf8),
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        // Test case 2: a key shorter than the block.
        (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        // Test case 3.
        ([UInt8](repeating: 0xAA, count: 20), [UInt8](repeating: 0xDD, count: 50),
         "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        // Test case 6: a key longer than the block is hashed first.
        ([UInt8](repeating: 0xAA, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
    ])
    func rfc4231(key: [UInt8], message: [UInt8], expected: String) throws {
        try HMACSHA256.load()
        #expect(HMACSHA256.mac(key: key, message: message) == Self.hex(expected))
    }

    @Test func constantTimeCompareFindsAnyDifference() {
        let mac = HMACSHA256.mac(key: [1, 2, 3], message: [4, 5, 6])
        #expect(HMACSHA256.constantTimeEqual(mac, mac))
        for index in mac.indices {
            var other = mac
            other[index] ^= 0x01
            #expect(!HMACSHA256.constantTimeEqual(mac, other))
        }
        #expect(!HMACSHA256.constantTimeEqual(mac, Array(mac.dropLast())))
    }
}
