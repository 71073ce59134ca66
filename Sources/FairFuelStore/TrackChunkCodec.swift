import FairFuelCore

/// Trip points packed into one blob per write: quantized, then delta-encoded as varints.
///
/// Layout: version byte (1), point count (varint), then per point six varints:
/// time (ms), latitude and longitude (1e-7 degree), speed (cm/s), distance (cm) and
/// fuel (microlitres), each zigzag-encoded and, after the first point, the change
/// from the point before (speed is absolute). About 12 bytes a point at 1 Hz,
/// against ~70 for a row of reals; the quantization is below what GNSS or the fuel
/// model can tell apart (1 cm, 0.1 mm/s scale, 1 µL).
enum TrackChunkCodec {
    static let version: UInt8 = 1
    /// A chunk is cut past this many blob bytes so that its row stays within one 4 KiB page.
    static let maximumBlobBytes = 900

    /// A point in the integer units the blob stores.
    struct Quantized: Equatable {
        var utcMs: Int64
        var latitudeE7: Int64
        var longitudeE7: Int64
        var speedCentimetersPerSecond: Int64
        var distanceCentimeters: Int64
        var fuelMicroliters: Int64

        init(_ point: StoredTripPoint) {
            utcMs = point.utcMs
            latitudeE7 = Self.scaled(point.latitude, 1e7)
            longitudeE7 = Self.scaled(point.longitude, 1e7)
            speedCentimetersPerSecond = max(0, Self.scaled(point.speedMetersPerSecond, 100))
            distanceCentimeters = Self.scaled(point.distanceMeters, 100)
            fuelMicroliters = Self.scaled(point.fuelLiters, 1e6)
        }

        init(utcMs: Int64, latitudeE7: Int64, longitudeE7: Int64, speedCentimetersPerSecond: Int64, distanceCentimeters: Int64, fuelMicroliters: Int64) {
            self.utcMs = utcMs
            self.latitudeE7 = latitudeE7
            self.longitudeE7 = longitudeE7
            self.speedCentimetersPerSecond = speedCentimetersPerSecond
            self.distanceCentimeters = distanceCentimeters
            self.fuelMicroliters = fuelMicroliters
        }

        /// `value × scale` rounded; a value that is not finite or too large to store becomes 0.
        static func scaled(_ value: Double, _ scale: Double) -> Int64 {
            let product = (value * scale).rounded()
            guard product.isFinite, abs(product) < 4e15 else { return 0 }
            return Int64(product)
        }

        func point(session: SessionID) -> StoredTripPoint {
            StoredTripPoint(
                session: session, utcMs: utcMs, latitude: Double(latitudeE7) / 1e7, longitude: Double(longitudeE7) / 1e7,
                speedMetersPerSecond: Double(speedCentimetersPerSecond) / 100, distanceMeters: Double(distanceCentimeters) / 100,
                fuelLiters: Double(fuelMicroliters) / 1e6)
        }
    }

    /// Why a blob could not be decoded.
    enum DecodeError: Error, Equatable, CustomStringConvertible {
        case empty
        case unknownVersion(UInt8)
        case truncated(atByte: Int)
        case overlongVarint(atByte: Int)
        case trailingBytes(count: Int)

        var description: String {
            switch self {
            case .empty: "empty blob"
            case let .unknownVersion(version): "unknown chunk version \(version)"
            case let .truncated(at): "truncated at byte \(at)"
            case let .overlongVarint(at): "overlong varint at byte \(at)"
            case let .trailingBytes(count): "\(count) bytes after the last point"
            }
        }
    }

    /// Encodes `points` (in the order given) into `bytes`, replacing what it held.
    static func encode<C: Collection>(_ points: C, into bytes: inout [UInt8]) where C.Element == StoredTripPoint {
        var encoder = Encoder(into: &bytes)
        for point in points { encoder.append(Quantized(point), to: &bytes) }
        encoder.finish(&bytes)
    }

    /// Builds one blob point by point, so that a writer can cut chunks by size.
    struct Encoder {
        private(set) var count = 0
        private var previous: Quantized?

        /// Starts a blob in `bytes` (cleared, capacity kept); the count is patched by `finish`.
        init(into bytes: inout [UInt8]) {
            bytes.removeAll(keepingCapacity: true)
            bytes.append(TrackChunkCodec.version)
            // Room for the count as a fixed 3-byte varint (up to 2 097 151 points).
            bytes.append(contentsOf: [0x80, 0x80, 0x00])
        }

        mutating func append(_ point: Quantized, to bytes: inout [UInt8]) {
            let base = previous ?? Quantized(utcMs: 0, latitudeE7: 0, longitudeE7: 0, speedCentimetersPerSecond: 0, distanceCentimeters: 0, fuelMicroliters: 0)
            TrackChunkCodec.appendSigned(point.utcMs &- base.utcMs, to: &bytes)
            TrackChunkCodec.appendSigned(point.latitudeE7 &- base.latitudeE7, to: &bytes)
            TrackChunkCodec.appendSigned(point.longitudeE7 &- base.longitudeE7, to: &bytes)
            TrackChunkCodec.appendUnsigned(UInt64(point.speedCentimetersPerSecond), to: &bytes)
            TrackChunkCodec.appendSigned(point.distanceCentimeters &- base.distanceCentimeters, to: &bytes)
            TrackChunkCodec.appendSigned(point.fuelMicroliters &- base.fuelMicroliters, to: &bytes)
            previous = point
            count += 1
        }

        /// Writes the point count into the header.
        func finish(_ bytes: inout [UInt8]) {
            precondition(count < 1 << 21, "a chunk holds fewer than 2 097 152 points")
            bytes[1] = UInt8(count & 0x7F) | 0x80
            bytes[2] = UInt8((count >> 7) & 0x7F) | 0x80
            bytes[3] = UInt8((count >> 14) & 0x7F)
        }
    }

    /// Decodes a blob, appending its points (stamped with `session`) to `points`.
    static func decode(_ bytes: UnsafeRawBufferPointer, session: SessionID, into points: inout [StoredTripPoint]) throws(DecodeError) {
        guard !bytes.isEmpty else { throw .empty }
        guard bytes[0] == version else { throw .unknownVersion(bytes[0]) }
        var offset = 1
        let count = try readUnsigned(bytes, &offset)
        guard count <= UInt64(bytes.count) else { throw .truncated(atByte: offset) }
        points.reserveCapacity(points.count + Int(count))
        var value = Quantized(utcMs: 0, latitudeE7: 0, longitudeE7: 0, speedCentimetersPerSecond: 0, distanceCentimeters: 0, fuelMicroliters: 0)
        for _ in 0..<count {
            value.utcMs &+= try readSigned(bytes, &offset)
            value.latitudeE7 &+= try readSigned(bytes, &offset)
            value.longitudeE7 &+= try readSigned(bytes, &offset)
            value.speedCentimetersPerSecond = Int64(bitPattern: try readUnsigned(bytes, &offset))
            value.distanceCentimeters &+= try readSigned(bytes, &offset)
            value.fuelMicroliters &+= try readSigned(bytes, &offset)
            points.append(value.point(session: session))
        }
        guard offset == bytes.count else { throw .trailingBytes(count: bytes.count - offset) }
    }

    static func appendUnsigned(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    static func appendSigned(_ value: Int64, to bytes: inout [UInt8]) {
        appendUnsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63)), to: &bytes)
    }

    static func readUnsigned(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) throws(DecodeError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        let start = offset
        while true {
            guard offset < bytes.count else { throw .truncated(atByte: offset) }
            let byte = bytes[offset]
            offset += 1
            guard shift < 64 else { throw .overlongVarint(atByte: start) }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }

    static func readSigned(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) throws(DecodeError) -> Int64 {
        let raw = try readUnsigned(bytes, &offset)
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }
}
