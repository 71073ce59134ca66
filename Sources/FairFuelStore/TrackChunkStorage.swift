import FairFuelCore
import FairFuelSQLite

/// Reads and writes the `track_chunks` rows of one session on a connection.
///
/// A chunk's id is `session << 24 | sequence`, so a session's chunks are the id range
/// `range(of:)` and need no index.
enum TrackChunkStorage {
    static let sequenceBits: Int64 = 24
    static let insertSQL = """
        INSERT INTO track_chunks (id, session_id, first_utc_ms, last_utc_ms, point_count, points) VALUES (?, ?, ?, ?, ?, ?)
        """

    /// The first and last chunk ids `session` can have.
    static func range(of session: Int64) -> (first: Int64, last: Int64) {
        (session << sequenceBits, session << sequenceBits | (1 << sequenceBits - 1))
    }

    /// Inserts `points` (all of `session`) as chunks cut at `TrackChunkCodec.maximumBlobBytes`,
    /// numbered from `firstSequence`; returns the next free sequence number.
    static func insert<C: Collection>(
        _ points: C, session: Int64, firstSequence: Int64, connection: SQLiteConnection, buffer: inout [UInt8]
    ) throws -> Int64 where C.Element == StoredTripPoint {
        var sequence = firstSequence
        var index = points.startIndex
        while index != points.endIndex {
            var encoder = TrackChunkCodec.Encoder(into: &buffer)
            var first = Int64.max
            var last = Int64.min
            while index != points.endIndex, encoder.count == 0 || buffer.count < TrackChunkCodec.maximumBlobBytes {
                let point = points[index]
                encoder.append(TrackChunkCodec.Quantized(point), to: &buffer)
                first = min(first, point.utcMs)
                last = max(last, point.utcMs)
                index = points.index(after: index)
            }
            encoder.finish(&buffer)
            guard sequence < 1 << sequenceBits else { throw StoreError.invalid("session \(session) has more than 16 777 215 track chunks") }
            let insert = try connection.statement(insertSQL)
            insert.bind(int64: session << sequenceBits | sequence, at: 1)
            insert.bind(int64: session, at: 2)
            insert.bind(int64: first, at: 3)
            insert.bind(int64: last, at: 4)
            insert.bind(int64: Int64(encoder.count), at: 5)
            try buffer.withUnsafeBytes { bytes in try insert.bind(bytes: bytes, at: 6) }
            defer { insert.rewind() }
            while try insert.step() {}
            sequence += 1
        }
        return sequence
    }

    /// The next sequence number of `session`'s chunks.
    static func nextSequence(session: Int64, connection: SQLiteConnection) throws(SQLiteError) -> Int64 {
        let (first, last) = range(of: session)
        guard let id = try connection.scalarInt("SELECT MAX(id) FROM track_chunks WHERE id BETWEEN ? AND ?", .integer(first), .integer(last)) else {
            return 0
        }
        return id - first + 1
    }

    /// Deletes every chunk of `session`.
    static func delete(session: Int64, connection: SQLiteConnection) throws(SQLiteError) {
        let (first, last) = range(of: session)
        try connection.run("DELETE FROM track_chunks WHERE id BETWEEN ? AND ?", .integer(first), .integer(last))
    }

    /// Every stored point of `session`, in time order.
    static func points(of session: SessionID, connection: SQLiteConnection) throws(StoreError) -> [StoredTripPoint] {
        var points: [StoredTripPoint] = []
        try decodeChunks(
            "SELECT id, points FROM track_chunks WHERE id BETWEEN ? AND ? ORDER BY id", session: session, connection: connection, into: &points)
        if !points.isSorted(by: \.utcMs) { points.sort { $0.utcMs < $1.utcMs } }
        return points
    }

    /// The latest stored point of `session` (from its last chunk), or nil when it has none.
    static func lastPoint(of session: SessionID, connection: SQLiteConnection) throws(StoreError) -> StoredTripPoint? {
        var points: [StoredTripPoint] = []
        try decodeChunks(
            "SELECT id, points FROM track_chunks WHERE id BETWEEN ? AND ? ORDER BY id DESC LIMIT 1", session: session,
            connection: connection, into: &points)
        return points.max { $0.utcMs < $1.utcMs }
    }

    /// The time span of `session`'s stored points, or nil when it has none.
    static func span(of session: SessionID, connection: SQLiteConnection) throws(SQLiteError) -> (first: Int64, last: Int64)? {
        let (first, last) = range(of: session.rawValue)
        return try connection.query(
            "SELECT MIN(first_utc_ms), MAX(last_utc_ms) FROM track_chunks WHERE id BETWEEN ? AND ?", .integer(first), .integer(last)
        ) { row in row.isNull(0) ? nil : (row.int64(0), row.int64(1)) }.first ?? nil
    }

    private static func decodeChunks(_ sql: String, session: SessionID, connection: SQLiteConnection, into points: inout [StoredTripPoint]) throws(StoreError) {
        do {
            let statement = try connection.statement(sql)
            defer { statement.rewind() }
            let (first, last) = range(of: session.rawValue)
            try statement.bind([.integer(first), .integer(last)])
            while try statement.step() {
                let sequence = statement.int64(0) - first
                let result: Result<Void, TrackChunkCodec.DecodeError> = statement.withBlob(1) { bytes in
                    Result { () throws(TrackChunkCodec.DecodeError) in try TrackChunkCodec.decode(bytes, session: session, into: &points) }
                }
                if case let .failure(error) = result {
                    throw StoreError.corruptTrack(session: session.rawValue, sequence: sequence, reason: error.description)
                }
            }
        } catch {
            throw StoreError(error)
        }
    }
}

extension Array {
    fileprivate func isSorted<Key: Comparable>(by key: (Element) -> Key) -> Bool {
        guard count > 1 else { return true }
        for index in 1..<count where key(self[index]) < key(self[index - 1]) { return false }
        return true
    }
}
