import FairFuelCore
import FairFuelSQLite

extension StoreSchema {
    /// Trip points move from one row each to compact chunks, one per flush: a flush then
    /// rewrites a single page (the rightmost leaf of one b-tree), and a point takes ~12 bytes.
    /// `sessions.track_level` records what retention left of a session's track.
    static let trackChunks = Migration(
        "2026-12-05-track-chunks",
        sql: """
            -- One row per write of a session's trip points; points: a TrackChunkCodec blob.
            -- id = session_id << 24 | sequence: a session's chunks are one key range and new ones
            -- go at the right edge of the only b-tree, so a flush rewrites one leaf page.
            CREATE TABLE track_chunks (
                id INTEGER PRIMARY KEY,
                session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE CHECK (id >> 24 = session_id),
                first_utc_ms INTEGER NOT NULL,
                last_utc_ms INTEGER NOT NULL,
                point_count INTEGER NOT NULL CHECK (point_count > 0),
                points BLOB NOT NULL
            );
            -- 0: every point kept (1 Hz); 1: simplified track; 2: only the points refuels and the ends need.
            ALTER TABLE sessions ADD COLUMN track_level INTEGER NOT NULL DEFAULT 0 CHECK (track_level IN (0, 1, 2));
            """,
        body: { connection in
            let sessions = try connection.query("SELECT DISTINCT session_id FROM trip_points ORDER BY session_id") { $0.int64(0) }
            var buffer: [UInt8] = []
            for session in sessions {
                let points = try connection.query(
                    "SELECT t_utc_ms, lat, lon, speed_mps, distance_m, fuel_l FROM trip_points WHERE session_id = ? ORDER BY t_utc_ms",
                    .integer(session)
                ) { row in
                    StoredTripPoint(
                        session: SessionID(session), utcMs: row.int64(0), latitude: row.double(1), longitude: row.double(2),
                        speedMetersPerSecond: row.double(3), distanceMeters: row.double(4), fuelLiters: row.double(5))
                }
                _ = try TrackChunkStorage.insert(points[...], session: session, firstSequence: 0, connection: connection, buffer: &buffer)
            }
            try connection.execute("DROP TABLE trip_points")
        })

    /// Turns on incremental vacuum, so that pruning can give pages back to the file system.
    /// New files get it before their first table; an older file is rewritten once by VACUUM.
    static let incrementalVacuum = Migration("2026-12-05-incremental-vacuum", inTransaction: false) { connection in
        guard try connection.pragmaInt("auto_vacuum") != 2 else { return }
        try connection.execute("PRAGMA auto_vacuum = INCREMENTAL")
        try connection.execute("VACUUM")
    }
}
