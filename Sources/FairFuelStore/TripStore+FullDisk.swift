import FairFuelSQLite

extension TripStore {
    /// The reserve fitted to the file system: `reserveBytes`, at most a sixteenth of it, so that
    /// the room it is taken back with (four times its size) exists on any disk.
    public var fittedReserveBytes: Int64 { Self.fittedReserveBytes(path: path, configuration: configuration) }

    static func fittedReserveBytes(path: String, configuration: StoreConfiguration) -> Int64 {
        let bytes = configuration.retention.reserveBytes
        guard let total = SQLiteDatabaseFiles(path: path).fileSystemBytes, total > 0 else { return bytes }
        return min(bytes, total / 16)
    }

    /// The file system holding the store is mounted read-only now.
    public var isOnReadOnlyFileSystem: Bool { SQLiteDatabaseFiles(path: path).isOnReadOnlyFileSystem }

    /// Creates the reserve file when it is missing and the file system has room for it
    /// four times over; true when the reserve is in place.
    @discardableResult
    public func restoreDiskReserve() -> Bool {
        let inPlace = placeDiskReserve()
        diskReserveMissing = !inPlace
        return inPlace
    }

    /// Takes the disk reserve back once space has come back after it was given up (or could not
    /// be made), without a restart: the service calls it every second; nothing but a flag is
    /// looked at while the reserve is in place. A WAL grown while the disk was full is given
    /// back first (`giveBackGrownWAL()`): it holds the room the reserve needs. True when it is in place.
    @discardableResult
    public func retakeDiskReserveIfMissing() -> Bool {
        guard diskReserveMissing, !waitsForWritableFileSystem else { return !diskReserveMissing }
        giveBackGrownWAL()
        let inPlace = restoreDiskReserve()
        if inPlace { log(.notice, "there is room on the disk holding \(path) again: the \(fittedReserveBytes)-byte reserve is back") }
        return inPlace
    }

    /// Checkpoints the WAL and truncates it to nothing when it is larger than the reserve (writes
    /// that went in while the reserve was missing grew it); after a failure (the disk still too
    /// full to checkpoint into) it is tried again only once the WAL has changed or a reserve's
    /// worth of space has come back, so that a disk that stays full is not written every second.
    func giveBackGrownWAL() {
        let files = SQLiteDatabaseFiles(path: path)
        let walBytes = SQLiteDatabaseFiles.size(of: files.walPath) ?? 0
        guard walBytes > fittedReserveBytes else { return }
        let freeBytes = files.freeBytes ?? 0
        if let failed = walTruncationFailedAt, failed.walBytes == walBytes, freeBytes < failed.freeBytes + fittedReserveBytes { return }
        _ = try? connection.checkpoint(.truncate)
        let after = SQLiteDatabaseFiles.size(of: files.walPath) ?? 0
        walTruncationFailedAt = after > 0 ? (after, files.freeBytes ?? 0) : nil
        if after == 0 { log(.notice, "checkpointed \(path): its \(walBytes)-byte WAL given back to the disk") }
    }

    private func placeDiskReserve() -> Bool {
        let files = SQLiteDatabaseFiles(path: path)
        let bytes = fittedReserveBytes
        guard bytes > 0 else {
            files.releaseReserve()
            return true
        }
        if let size = SQLiteDatabaseFiles.size(of: files.reservePath) {
            if size == bytes { return true }
            files.releaseReserve()  // a policy with another size
        }
        guard let free = files.freeBytes, free >= 4 * bytes else { return false }
        let created = files.createReserve(bytes: bytes)
        if created { log(.info, "reserved \(bytes) bytes beside \(path) for a full disk") }
        return created
    }

    /// Makes room after a write failed on a full disk: gives up the reserve file (so that SQLite
    /// can checkpoint and start the WAL over), thins the oldest tracks (new writes reuse the
    /// pages they free without growing the file; no vacuum, which would hand them back) and
    /// checkpoints, truncating the WAL so that its bytes go back to the file system.
    /// Without `releasingReserve` (a trip point write, a count of lost points) the reserve stays for sessions.
    /// Returns the sessions thinned.
    @discardableResult
    public func relieveDiskPressure(releasingReserve: Bool = true) -> Int {
        if releasingReserve, SQLiteDatabaseFiles(path: path).releaseReserve() {
            diskReserveMissing = true
            log(.error, "the disk holding \(path) is full: released the \(fittedReserveBytes)-byte reserve")
        }
        _ = try? connection.checkpoint(.passive)
        _ = try? trimEventLog()
        if let receipts = try? retention.deleteOldestReceipts(limit: Self.thinningBatch), receipts > 0 {
            log(.notice, "disk full: dropped the receipt photos of the \(receipts) oldest refuel(s)")
        }
        var thinned = 0
        for level in [TrackLevel.full, .simplified] where thinned == 0 {
            guard let sessions = try? closedSessions(at: level, endedBefore: nil, limit: Self.thinningBatch / 2), !sessions.isEmpty else { continue }
            do {
                let removed = try thin(sessions, to: level == .full ? .simplified : .anchorsOnly)
                log(.notice, "disk full: thinned \(sessions.count) old track(s), \(removed) point(s) removed")
                thinned = sessions.count
            } catch {
                log(.warning, "disk full: could not thin old tracks: \(error)")
            }
        }
        _ = try? connection.checkpoint(.truncate)
        return thinned
    }
}
