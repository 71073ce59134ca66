import FairFuelCore
import FairFuelSQLite

/// The uplink's queue of QoS 1 messages: what waits for its PUBACK, within a budget, with counts
/// of what was sent and dropped. Writes run inside the caller's transaction (`TripStore.write`).
public struct OutboxRepository {
    let database: StoreDatabase

    init(database: StoreDatabase) {
        self.database = database
    }

    private var connection: SQLiteConnection { database.connection }

    /// The vehicle's id in MQTT topics (`fairfuel/<id>/...`): 32 hex digits made once by the
    /// outbox migration, stable for the store's life, unrelated to the vehicle's name.
    func vehicleUplinkID() throws(StoreError) -> String {
        let id: String?
        do { id = try connection.scalarText("SELECT uplink_id FROM vehicle WHERE id = 1") } catch { throw .sqlite(error) }
        guard let id else { throw .notFound("the vehicle has no uplink id") }
        return id
    }

    /// Inserts a message (inside a transaction); `payload` receives its id. A status message
    /// replaces any unsent status message of the same topic; then the oldest record messages are
    /// dropped, and counted, while the outbox is over `budget`.
    func insert(
        topic: String, retained: Bool, kind: OutboxMessageKind, recordID: Int64?, budget: OutboxBudget,
        payload: (OutboxMessageID) -> [UInt8]
    ) throws(SQLiteError) -> OutboxMessageID {
        if kind == .status {
            try connection.run("DELETE FROM outbox WHERE kind = 'status' AND topic = ?", .text(topic))
        }
        try connection.run(
            "INSERT INTO outbox (topic, payload, retained, kind, record_id) VALUES (?, x'', ?, ?, ?)",
            .text(topic), .integer(retained ? 1 : 0), .text(kind.rawValue), .optional(recordID))
        let id = OutboxMessageID(connection.lastInsertRowID)
        try connection.run("UPDATE outbox SET payload = ? WHERE id = ?", .blob(payload(id)), .integer(id.rawValue))
        try enforceBudget(budget)
        return id
    }

    /// Up to `limit` pending messages after `afterID` (those already in flight), oldest first.
    func pending(after afterID: OutboxMessageID?, limit: Int) throws(StoreError) -> [OutboxMessage] {
        do {
            return try connection.query(
                "SELECT id, topic, payload, retained, kind, record_id FROM outbox WHERE id > ? ORDER BY id LIMIT ?",
                .integer(afterID?.rawValue ?? 0), .integer(Int64(max(0, limit)))
            ) { row in
                OutboxMessage(
                    id: OutboxMessageID(row.int64(0)), topic: row.text(1) ?? "", payload: row.blob(2), retained: row.int64(3) != 0,
                    kind: OutboxMessageKind(rawValue: row.text(4) ?? "") ?? .record, recordID: row.optionalInt64(5))
            }
        } catch { throw .sqlite(error) }
    }

    /// Removes a message the broker acknowledged (inside a transaction); false when it was no
    /// longer pending (sent before, or dropped for the budget while in flight).
    func removeSent(_ id: OutboxMessageID) throws(SQLiteError) -> Bool {
        guard try connection.run("DELETE FROM outbox WHERE id = ?", .integer(id.rawValue)) == 1 else { return false }
        try connection.run("UPDATE outbox_counters SET sent_messages = sent_messages + 1 WHERE id = 1")
        return true
    }

    /// What the outbox holds, and what it sent and dropped over the store's life.
    func statistics() throws(StoreError) -> OutboxStatistics {
        var statistics = OutboxStatistics()
        do {
            _ = try connection.query(
                """
                SELECT count(*), coalesce(sum(length(CAST(topic AS BLOB)) + length(payload)), 0),
                       coalesce(sum(kind = 'status'), 0), min(id)
                FROM outbox
                """
            ) { row in
                statistics.pendingMessages = row.int(0)
                statistics.pendingBytes = row.int64(1)
                statistics.pendingStatusMessages = row.int(2)
                statistics.oldestPending = row.optionalInt64(3).map { OutboxMessageID($0) }
            }
            _ = try connection.query(
                "SELECT sent_messages, dropped_messages, dropped_bytes, last_dropped_id FROM outbox_counters WHERE id = 1"
            ) { row in
                statistics.sentMessages = row.int64(0)
                statistics.droppedMessages = row.int64(1)
                statistics.droppedBytes = row.int64(2)
                statistics.lastDropped = row.optionalInt64(3).map { OutboxMessageID($0) }
            }
        } catch { throw .sqlite(error) }
        return statistics
    }

    /// Drops the oldest record messages while the outbox is over `budget`; status messages stay.
    func enforceBudget(_ budget: OutboxBudget) throws(SQLiteError) {
        let sizeSQL = "length(CAST(topic AS BLOB)) + length(payload)"
        var count = try connection.scalarInt("SELECT count(*) FROM outbox") ?? 0
        var bytes = try connection.scalarInt("SELECT coalesce(sum(\(sizeSQL)), 0) FROM outbox") ?? 0
        while count > Int64(budget.maximumMessages) || bytes > budget.maximumBytes {
            let oldest = try connection.query(
                "SELECT id, \(sizeSQL) FROM outbox WHERE kind = 'record' ORDER BY id LIMIT 1"
            ) { row in (row.int64(0), row.int64(1)) }
            guard let (id, size) = oldest.first else { return }  // only status messages left
            try connection.run("DELETE FROM outbox WHERE id = ?", .integer(id))
            try connection.run(
                """
                UPDATE outbox_counters SET dropped_messages = dropped_messages + 1, dropped_bytes = dropped_bytes + ?,
                    last_dropped_id = ? WHERE id = 1
                """,
                .integer(size), .integer(id))
            count -= 1
            bytes -= size
        }
    }
}
