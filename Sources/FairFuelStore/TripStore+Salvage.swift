import FairFuelCore
import FairFuelSQLite

/// What `salvage(from:)` brought over from a corrupt store, table by table.
public struct StoreSalvage: Sendable, Equatable {
    /// Rows copied per table (tables with none left out).
    public var rows: [String: Int] = [:]
    /// Tables whose reading met damage: some of their rows may be missing.
    public var damaged: [String] = []
    /// Rows dropped afterwards because what they pointed at was lost (a share of a lost bill).
    public var orphansDropped = 0

    public init() {}

    /// For the log: "3 drivers, 120 sessions, …; damaged: track_chunks".
    public var summary: String {
        let copied = TripStore.salvagedTables.compactMap { table in rows[table].map { "\($0) \(table)" } }
        var text = copied.isEmpty ? "nothing" : copied.joined(separator: ", ")
        if !damaged.isEmpty { text += "; damaged, rows may be missing: " + damaged.joined(separator: ", ") }
        if orphansDropped > 0 { text += "; \(orphansDropped) row(s) whose parent was lost dropped" }
        return text
    }
}

extension TripStore {
    /// What a corrupt store is worth saving, parents before children: the car and its drivers
    /// (without them every later drive would be untracked), then the books and the tracks.
    /// The outbox's pending messages are not: the records they announce are republished by
    /// the corrections that follow, and their revisions (`outbox_revisions`) carry on.
    static let salvagedTables = [
        "vehicle", "drivers", "driver_tags", "driver_beacons", "pairing", "runs", "sessions", "track_chunks", "untracked_driving",
        "refuels", "refuel_shares", "calibrations", "outbox_revisions",
    ]
    /// Rows read per query: a damaged page costs at most one batch's read.
    static let salvageBatchRows = 256

    /// Copies what can still be read from the store at `oldPath` (opened read-only, never
    /// changed) into this one, a fresh store of the same schema: table by table, the columns
    /// both have, in row id order, stepping past pages that no longer read. Then drops rows
    /// whose parent was lost and splits the bills again (settled ones stay as they were).
    /// Best effort: whatever fails is counted, nothing is thrown.
    public func salvage(from oldPath: String) -> StoreSalvage {
        var result = StoreSalvage()
        let old: SQLiteConnection
        do {
            old = try SQLiteConnection(path: oldPath, mode: .readOnly)
        } catch {
            log(.error, "cannot open \(oldPath) to salvage it: \(error)")
            return result
        }
        do { try connection.execute("PRAGMA foreign_keys = OFF") } catch { log(.warning, "salvage: \(error)") }
        defer { try? connection.execute("PRAGMA foreign_keys = ON") }
        for table in Self.salvagedTables {
            var copied = 0
            let complete = salvage(table: table, from: old, copied: &copied)
            if copied > 0 { result.rows[table] = copied }
            if !complete { result.damaged.append(table) }
        }
        do {
            let orphans = try connection.query("PRAGMA foreign_key_check") { ($0.text(0) ?? "", $0.optionalInt64(1)) }
            try write {
                for case let (table, rowID?) in orphans where Self.salvagedTables.contains(table) {
                    try connection.run("DELETE FROM \(table) WHERE rowid = ?", .integer(rowID))
                    result.orphansDropped += 1
                }
            }
            try rebook(force: true) {}
        } catch {
            log(.warning, "salvage: tidying what was copied failed: \(error)")
        }
        return result
    }

    /// Copies `table`'s readable rows; false when some could not be read.
    private func salvage(table: String, from old: SQLiteConnection, copied: inout Int) -> Bool {
        let columns: [String]
        do {
            let wanted = try connection.query("PRAGMA table_info(\(table))") { $0.text(1) ?? "" }
            let present = Set(try old.query("PRAGMA table_info(\(table))") { $0.text(1) ?? "" })
            columns = wanted.filter(present.contains)
        } catch {
            return false
        }
        guard !columns.isEmpty else { return true }
        let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
        let insert = "INSERT OR REPLACE INTO \(table) (\(list)) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
        let width = Int32(columns.count)
        func store(_ rows: [[SQLiteValue]]) throws {
            guard !rows.isEmpty else { return }
            try write {
                let statement = try connection.statement(insert)
                for row in rows {
                    statement.rewind()
                    try statement.bind(row)
                    _ = try statement.step()
                }
            }
            copied += rows.count
        }
        // A table without row ids (small ones): in one read.
        guard (try? old.query("SELECT rowid FROM \(table) LIMIT 1") { $0.int64(0) }) != nil else {
            do {
                try store(try old.query("SELECT \(list) FROM \(table)") { row in (0..<width).map { row.value($0) } })
                return true
            } catch {
                return false
            }
        }
        let last = (try? old.scalarInt("SELECT MAX(rowid) FROM \(table)")) ?? nil
        var after = Int64.min
        var complete = true
        var step: Int64 = 1
        var failures = 0
        while failures < 64 {
            do {
                let rows = try old.query(
                    "SELECT rowid, \(list) FROM \(table) WHERE rowid > ? ORDER BY rowid LIMIT \(Self.salvageBatchRows)", .integer(after)
                ) { row in (row.int64(0), (1...width).map { row.value($0) }) }
                try store(rows.map(\.1))
                guard let next = rows.last?.0, rows.count == Self.salvageBatchRows else { break }
                after = next
                step = 1
            } catch {
                // A page that no longer reads: step past it, further each time, up to the last row id.
                complete = false
                failures += 1
                guard let last, after < last else { break }
                after = after == .min ? 0 : after
                after = last - after <= step ? last : after + step
                step = step > Int64.max / 4 ? step : step * 4
            }
        }
        return complete && failures < 64
    }
}
