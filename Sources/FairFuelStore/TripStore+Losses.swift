import FairFuelCore
import FairFuelSQLite

extension TripStore {
    /// Adds `losses` to the persisted counters, synced (one small in-place update per kind, so
    /// it can succeed on a disk too full for a session); `newEpisode` counts one more full-disk episode.
    /// Only counts of records that matter (sessions, untracked driving) may spend the disk reserve:
    /// lost trip points and events wait in memory until there is room.
    public func addLosses(_ losses: StoreLosses, newEpisode: Bool = false) throws(StoreError) {
        guard !losses.isEmpty || newEpisode else { return }
        try write(durable: true, spendingReserve: losses.recordsThatMatter > 0) {
            for kind in StoreLossKind.allCases where losses[kind] != 0 {
                try connection.run("UPDATE store_losses SET count = count + ? WHERE kind = ?", .int(losses[kind]), .text(kind.rawValue))
            }
            if newEpisode { try connection.run("UPDATE store_losses SET episodes = episodes + 1 WHERE kind = 'session_end'") }
        }
    }

    /// The persisted counters of what could not be kept, since the store was created.
    public func losses() throws(StoreError) -> StoreLosses {
        try wrap { () throws(SQLiteError) in
            var losses = StoreLosses()
            let rows = try connection.queryOnce("SELECT kind, count FROM store_losses") { ($0.text(0) ?? "", Int($0.int64(1))) }
            for (name, count) in rows { if let kind = StoreLossKind(rawValue: name) { losses[kind] = count } }
            return losses
        }
    }

    /// Full-disk episodes in which something was lost, as persisted.
    public func lossEpisodes() throws(StoreError) -> Int {
        try wrap { () throws(SQLiteError) in
            Int(try connection.scalarInt("SELECT episodes FROM store_losses WHERE kind = 'session_end'") ?? 0)
        }
    }
}
