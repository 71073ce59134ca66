import FairFuelLink
import FairFuelPull
import Testing
import TestSupport

/// Every pull message survives encoding and decoding, whole, byte by byte and in random chunks,
/// and a malformed payload is rejected, never delivered.
@Suite struct PullCodecTests {
    static let laptopMessages: [PullMessage] = [
        .helloRequest(major: 1, minor: 0),
        .auth(clientNonce: Array(0..<16), mac: Array(100..<132)),
        .get(PullRequest(requestID: 7, kind: .trips, trip: 0, cursor: 42, sinceUTCMs: 1_763_625_600_000, limit: 16)),
        .get(PullRequest(requestID: 65_535, kind: .track, trip: 9, cursor: -1, sinceUTCMs: nil, limit: 512)),
        .bye,
    ]
    static let dongleMessages: [PullMessage] = [
        .hello(major: 1, minor: 0, serverNonce: Array(200..<216)),
        .authOK(mac: Array(0..<32)),
        .data(requestID: 3, offset: 240, bytes: Array(repeating: 0x41, count: 240)),
        .data(requestID: 3, offset: 0, bytes: [0x00, 0x0A, 0xFF]),
        .end(PullPageEnd(requestID: 3, totalBytes: 483, records: 5, nextCursor: Int64.max, more: true)),
        .error(requestID: 0, code: .locked, retryAfterMs: 4_000),
    ]

    static func decode(_ wire: [UInt8], sender: PullSide, chunking: Chunking) -> [PullReaderOutput] {
        var reader = PullFrameReader(sender: sender)
        var outputs: [PullReaderOutput] = []
        for chunk in chunking.chunks(of: wire) { reader.decode(chunk) { outputs.append($0) } }
        return outputs
    }

    @Test(arguments: Chunking.all)
    func roundTripsInAnyChunking(chunking: Chunking) {
        for (sender, messages) in [(PullSide.laptop, Self.laptopMessages), (.dongle, Self.dongleMessages)] {
            var writer = PullFrameWriter()
            let wire = messages.flatMap { writer.encode($0) }
            #expect(Self.decode(wire, sender: sender, chunking: chunking) == messages.map { .message($0) })
        }
    }

    @Test func theOtherEndsTypesAreRejected() {
        var writer = PullFrameWriter()
        let wire = writer.encode(.hello(major: 1, minor: 0, serverNonce: Array(0..<16)))
        let outputs = Self.decode(wire, sender: .laptop, chunking: .whole)
        #expect(outputs == [.rejected(rawType: 0xD0, reason: "unknown type")])
    }

    @Test func malformedPayloadsAreRejected() {
        let cases: [(UInt8, [UInt8])] = [
            (0xC0, Array(repeating: 1, count: 47)),  // AUTH one byte short
            (0xC0, Array(repeating: 1, count: 49)),  // and one long
            (0xC1, [1, 0, 99] + Array(repeating: 0, count: 26)),  // GET of an unknown kind
            (0xC1, [1, 0, 3] + Array(repeating: 0, count: 24) + [0, 0]),  // GET with limit 0
            (0xC2, [0]),  // BYE carries nothing
        ]
        for (seq, (type, payload)) in cases.enumerated() {
            let wire = FrameEncoder.encodeRaw(type: type, seq: UInt16(seq), payload: payload)
            let outputs = Self.decode(wire, sender: .laptop, chunking: .whole)
            #expect(outputs == [.rejected(rawType: type, reason: "bad payload")], "type 0x\(String(type, radix: 16)) \(payload.count) bytes")
        }
        let dataTooLong = FrameEncoder.encodeRaw(type: 0xD2, seq: 0, payload: [1, 0, 0, 0, 0, 0] + Array(repeating: 7, count: 241))
        #expect(Self.decode(dataTooLong, sender: .dongle, chunking: .whole) == [.rejected(rawType: 0xD2, reason: "bad payload")])
    }

    @Test func noiseIsCountedAndTheNextFrameStillArrives() {
        var writer = PullFrameWriter()
        var wire: [UInt8] = [0x13, 0x37, 0x00]  // a frame too short for a body
        var corrupt = writer.encode(.bye)
        corrupt[1] ^= 0x40  // CRC mismatch
        wire += corrupt
        wire += writer.encode(.helloRequest(major: 1, minor: 0))
        var reader = PullFrameReader(sender: .laptop)
        var outputs: [PullReaderOutput] = []
        reader.decode(wire[...]) { outputs.append($0) }
        #expect(outputs.last == .message(.helloRequest(major: 1, minor: 0)))
        #expect(reader.noiseCount == 2)
        #expect(reader.messageCount == 1)
    }

    @Test func recordLinesRoundTripAndNeverSplitOnAFieldsTab() {
        let line = PullRecordLine.encode(["7", "Ann\tMarie", "", "line\nbreak"])
        #expect(line == "7\tAnn Marie\t\tline break\n")
        #expect(PullRecordLine.decode(Array((line + line).utf8)) == [["7", "Ann Marie", "", "line break"], ["7", "Ann Marie", "", "line break"]])
    }

    @Test func aPairingSecretParsesAsShownAndNeverPrintsItself() throws {
        let secret = PairingSecret.generate()
        #expect(secret.bytes.count == 16)
        #expect(PairingSecret(parsing: secret.display) == secret)
        #expect(PairingSecret(parsing: secret.hex.uppercased()) == secret)
        #expect(!"\(secret)".contains(secret.hex))
        #expect(PairingSecret(parsing: String(secret.hex.dropLast())) == nil)
        #expect(PairingSecret(parsing: "zz" + String(secret.hex.dropFirst(2))) == nil)
        #expect(PairingSecret.generate() != secret)
    }
}
