import FairFuelCore
@testable import FairFuelStore
import Testing
import TestSupport

@Suite struct TrackChunkCodecTests {
    static func decode(_ bytes: [UInt8]) throws(TrackChunkCodec.DecodeError) -> [StoredTripPoint] {
        var points: [StoredTripPoint] = []
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(TrackChunkCodec.DecodeError) in try TrackChunkCodec.decode(raw, session: SessionID(7), into: &points) }
        }
        try result.get()
        return points
    }

    @Test func roundTripsToTheQuantizedValues() throws {
        let trip = SyntheticTrip(seed: 1, startUTCMs: 1_795_000_000_000, count: 600, session: SessionID(7))
        var bytes: [UInt8] = []
        TrackChunkCodec.encode(trip.points, into: &bytes)
        let decoded = try Self.decode(bytes)
        #expect(decoded.map(quantized) == trip.points.map(quantized))
        #expect(decoded.map(\.utcMs) == trip.points.map(\.utcMs))
        #expect(decoded.allSatisfy { $0.session == SessionID(7) })
        // Quantization stays below what the sources can tell apart.
        for (stored, original) in zip(decoded, trip.points) {
            #expect(abs(stored.latitude - original.latitude) <= 0.5e-7)
            #expect(abs(stored.distanceMeters - original.distanceMeters) <= 0.005)
            #expect(abs(stored.fuelLiters - original.fuelLiters) <= 0.5e-6)
            #expect(abs(stored.speedMetersPerSecond - original.speedMetersPerSecond) <= 0.005)
        }
        // Decoding what was decoded changes nothing: stored values are fixed points of the codec.
        var again: [UInt8] = []
        TrackChunkCodec.encode(decoded, into: &again)
        #expect(again == bytes)
    }

    @Test func aPointAtOneHertzTakesAboutTwelveBytes() {
        let trip = SyntheticTrip(seed: 2, startUTCMs: 1_795_000_000_000, count: 3_600)
        var bytes: [UInt8] = []
        TrackChunkCodec.encode(trip.points, into: &bytes)
        let perPoint = Double(bytes.count) / 3_600
        #expect(perPoint < 14, "\(perPoint) bytes a point")
    }

    @Test func exactValuesSurviveUnchanged() throws {
        let point = StoredTripPoint(
            session: SessionID(7), utcMs: 1_795_000_123_456, latitude: 48.8566, longitude: -2.3522, speedMetersPerSecond: 13.9,
            distanceMeters: 1_300, fuelLiters: 0.11)
        let decoded = try Self.decode({ var b: [UInt8] = []; TrackChunkCodec.encode([point], into: &b); return b }())
        #expect(decoded == [point])
    }

    @Test func oddInputIsStoredSafely() throws {
        let points = [
            StoredTripPoint(session: SessionID(7), utcMs: 10, latitude: .nan, longitude: .infinity, speedMetersPerSecond: -3, distanceMeters: 1e300, fuelLiters: 0),
            StoredTripPoint(session: SessionID(7), utcMs: 5, latitude: -90, longitude: 180, speedMetersPerSecond: 0, distanceMeters: 0, fuelLiters: 0),
        ]
        var bytes: [UInt8] = []
        TrackChunkCodec.encode(points, into: &bytes)
        let decoded = try Self.decode(bytes)
        #expect(decoded.map(\.utcMs) == [10, 5])  // time going backwards is kept as given
        #expect(decoded[0].latitude == 0 && decoded[0].longitude == 0 && decoded[0].speedMetersPerSecond == 0 && decoded[0].distanceMeters == 0)
        #expect(decoded[1].latitude == -90 && decoded[1].longitude == 180)
    }

    /// Each blob has a single defect.
    @Test(arguments: [
        ([UInt8](), TrackChunkCodec.DecodeError.empty),
        ([2, 0x80, 0x80, 0x00], .unknownVersion(2)),
        ([1, 0x81, 0x80, 0x00, 2], .truncated(atByte: 5)),
        ([1, 0x80, 0x80, 0x00, 0], .trailingBytes(count: 1)),
        ([1, 0x81, 0x80, 0x00] + [UInt8](repeating: 0xFF, count: 11), .overlongVarint(atByte: 4)),
    ])
    func corruptBlobsAreRefused(blob: [UInt8], error: TrackChunkCodec.DecodeError) {
        #expect(throws: error) { try Self.decode(blob) }
    }

    /// Random bytes and damaged real chunks: each is refused with a typed error, or decodes to
    /// points that encode and decode again to themselves (never a crash, never garbage that
    /// changes when stored again).
    @Test func randomBytesAreRefusedOrDecodeToStablePoints() throws {
        var random = SeededGenerator(seed: 99)
        let trip = SyntheticTrip(seed: 3, startUTCMs: 1_795_000_000_000, count: 40, session: SessionID(7))
        var real: [UInt8] = []
        TrackChunkCodec.encode(trip.points, into: &real)
        var refused = 0, decoded = 0
        for round in 0..<2_000 {
            var bytes: [UInt8]
            if round % 4 == 0 {
                // A real chunk with one byte changed.
                bytes = real
                bytes[Int.random(in: 1..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            } else {
                bytes = random.bytes(Int.random(in: 0..<80, using: &random))
                if !bytes.isEmpty, Bool.random(using: &random) { bytes[0] = 1 }
            }
            do {
                let points = try Self.decode(bytes)
                decoded += 1
                var again: [UInt8] = []
                TrackChunkCodec.encode(points, into: &again)
                #expect(try Self.decode(again) == points, "round \(round): decoded points do not survive storing again")
            } catch is TrackChunkCodec.DecodeError {
                refused += 1
            }
        }
        #expect(refused > 0 && decoded > 0, "\(refused) refused, \(decoded) decoded")
    }
}
