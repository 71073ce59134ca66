import FairFuelCore
import FairFuelSQLite

/// The outbox's operations, forwarded to `OutboxRepository` inside the store's writes.
extension TripStore {
    /// The vehicle's id in MQTT topics (`fairfuel/<id>/...`): 32 hex digits made once by the
    /// outbox migration, stable for the store's life, unrelated to the vehicle's name.
    public func vehicleUplinkID() throws(StoreError) -> String {
        try outbox.vehicleUplinkID()
    }

    /// Queues a QoS 1 message, inside the caller's `write` transaction when there is one (so a
    /// record and its message commit or roll back together), else in a transaction of its own.
    ///
    /// `payload` receives the message's id, so that the message can carry it. A status message
    /// replaces any unsent status message of the same topic. Afterwards the oldest record
    /// messages are dropped, and counted, while the outbox is over `budget`.
    @discardableResult
    public func enqueueOutboxMessage(
        topic: String, retained: Bool, kind: OutboxMessageKind = .record, recordID: Int64? = nil, budget: OutboxBudget,
        payload: (OutboxMessageID) -> [UInt8]
    ) throws(StoreError) -> OutboxMessageID {
        guard !topic.isEmpty else { throw .invalid("an outbox message needs a topic") }
        if connection.isInTransaction {
            return try wrap { () throws(SQLiteError) in
                try outbox.insert(topic: topic, retained: retained, kind: kind, recordID: recordID, budget: budget, payload: payload)
            }
        }
        return try write {
            try outbox.insert(topic: topic, retained: retained, kind: kind, recordID: recordID, budget: budget, payload: payload)
        }
    }

    /// Convenience for a payload that does not carry the message id.
    @discardableResult
    public func enqueueOutboxMessage(
        topic: String, payload: [UInt8], retained: Bool, kind: OutboxMessageKind = .record, recordID: Int64? = nil,
        budget: OutboxBudget
    ) throws(StoreError) -> OutboxMessageID {
        try enqueueOutboxMessage(topic: topic, retained: retained, kind: kind, recordID: recordID, budget: budget) { _ in payload }
    }

    /// Up to `limit` pending messages after `afterID` (those already in flight), oldest first.
    public func pendingOutboxMessages(after afterID: OutboxMessageID? = nil, limit: Int) throws(StoreError) -> [OutboxMessage] {
        try outbox.pending(after: afterID, limit: limit)
    }

    /// Removes a message the broker acknowledged; false when it was no longer pending (sent
    /// before, or dropped for the budget while in flight).
    @discardableResult
    public func markOutboxMessageSent(_ id: OutboxMessageID) throws(StoreError) -> Bool {
        try write { () throws -> Bool in try outbox.removeSent(id) }
    }

    /// What the outbox holds, and what it sent and dropped over the store's life.
    public func outboxStatistics() throws(StoreError) -> OutboxStatistics {
        try outbox.statistics()
    }
}
