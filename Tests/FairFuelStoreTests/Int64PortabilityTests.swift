import FairFuelCore
import FairFuelSQLite
@testable import FairFuelStore
import Foundation
import Testing

/// The store keeps times (UTC and link milliseconds), money in minor units and ids as
/// SQLite INTEGER (64-bit) columns read into Swift `Int`. That is exact only where `Int` is
/// 64 bits: the Pi builds (arm64) and the development machines (amd64) are; a 32-bit build
/// (armhf) would trap on a UTC millisecond time. These tests pin the width and the round
/// trips at the values a narrower or byte-swapped path would break.
@Suite struct Int64PortabilityTests {
    /// Fields whose bytes all differ and that overflow 32 bits, plus the extremes.
    static let values: [Int64] = [
        0, 1, -1, Int64(Int32.max), Int64(Int32.max) + 1, Int64(Int32.min) - 1,
        1_795_000_000_123, -1_795_000_000_123, 0x0102_0304_0506_0708, Int64.max, Int64.min,
    ]

    @Test func intIsSixtyFourBitsOnEverySupportedTarget() {
        // A 32-bit target needs the store's Int columns revisited first (see the suite's comment).
        #expect(MemoryLayout<Int>.size == 8)
        #expect(Int(exactly: Int64.max) != nil)
    }

    @Test func integerColumnsRoundTripExactly() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fairfuel-int64-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let connection = try SQLiteConnection(path: directory.appendingPathComponent("t.db").path)
        try connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER NOT NULL)")
        for (index, value) in Self.values.enumerated() {
            _ = try connection.run("INSERT INTO t (id, v) VALUES (?, ?)", .int(index + 1), .integer(value))
        }
        let read = try connection.query("SELECT v, typeof(v), v = ?1 FROM t ORDER BY id", .integer(0)) { row in
            (row.int64(0), row.int(0), row.text(1))
        }
        #expect(read.map(\.0) == Self.values)
        #expect(read.map { Int64($0.1) } == Self.values)
        #expect(read.allSatisfy { $0.2 == "integer" })
        // SQLite compares and sorts them as 64-bit integers, not as text or doubles.
        #expect(try connection.scalarInt("SELECT count(*) FROM t WHERE v > ?", .integer(Int64(Int32.max))) == 4)
        #expect(try connection.scalarInt("SELECT max(v) FROM t") == Int64.max)
    }

    /// The track chunk's zig-zag varints: every value back exactly, including the two extremes.
    @Test func trackVarintsRoundTripAtTheEdges() throws {
        var bytes: [UInt8] = []
        for value in Self.values { TrackChunkCodec.appendSigned(value, to: &bytes) }
        let decoded = try bytes.withUnsafeBytes { raw in
            var offset = 0
            var out: [Int64] = []
            while offset < raw.count { out.append(try TrackChunkCodec.readSigned(raw, &offset)) }
            return out
        }
        #expect(decoded == Self.values)
        // Little-endian groups of 7 bits: 300 is 0xAC 0x02 whatever the host's byte order.
        var three: [UInt8] = []
        TrackChunkCodec.appendUnsigned(300, to: &three)
        #expect(three == [0xAC, 0x02])
    }
}
