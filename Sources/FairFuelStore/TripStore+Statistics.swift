import FairFuelSQLite

extension TripStore {
    public func statistics() throws(StoreError) -> StoreStatistics {
        let files = SQLiteDatabaseFiles(path: path)
        return try wrap { () throws(SQLiteError) in
            var byLevel: [TrackLevel: Int] = [:]
            for (level, count) in try connection.query("SELECT track_level, COUNT(*) FROM sessions GROUP BY track_level", row: { ($0.int(0), $0.int(1)) }) {
                if let level = TrackLevel(rawValue: level) { byLevel[level] = count }
            }
            let chunks = try connection.query("SELECT COUNT(*), COALESCE(SUM(point_count), 0), COALESCE(SUM(length(points)), 0) FROM track_chunks") {
                ($0.int(0), $0.int(1), $0.int64(2))
            }.first ?? (0, 0, 0)
            return StoreStatistics(
                databaseBytes: SQLiteDatabaseFiles.size(of: files.path) ?? 0,
                walBytes: SQLiteDatabaseFiles.size(of: files.walPath) ?? 0,
                pageSizeBytes: try connection.pragmaInt("page_size"),
                pageCount: try connection.pragmaInt("page_count"),
                freePages: try connection.pragmaInt("freelist_count"),
                sessions: Int(try connection.scalarInt("SELECT COUNT(*) FROM sessions") ?? 0),
                openSessions: Int(try connection.scalarInt("SELECT COUNT(*) FROM sessions WHERE end_reason IS NULL") ?? 0),
                sessionsByTrackLevel: byLevel,
                trackChunks: chunks.0, trackPoints: chunks.1, trackBlobBytes: chunks.2,
                events: Int(try connection.scalarInt("SELECT COUNT(*) FROM events") ?? 0),
                refuels: Int(try connection.scalarInt("SELECT COUNT(*) FROM refuels") ?? 0),
                oldestFullTrackUTCMs: try connection.scalarInt(
                    """
                    SELECT MIN(start_utc_ms) FROM sessions
                    WHERE track_level = 0 AND EXISTS (SELECT 1 FROM track_chunks WHERE id BETWEEN sessions.id << 24 AND (sessions.id << 24) + 16777215)
                    """))
        }
    }

    /// `PRAGMA integrity_check` (`full`) or `quick_check`: an empty array when the file is sound.
    public func checkIntegrity(full: Bool) throws(StoreError) -> [String] {
        try wrap { () throws(SQLiteError) in full ? try connection.integrityCheck() : try connection.quickCheck() }
    }
}
