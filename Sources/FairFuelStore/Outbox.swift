import FairFuelCore
/// What a message is for the budget: records may be dropped (oldest first) when the outbox is
/// over budget; the one status message per topic never is, and a newer one replaces it.
public enum OutboxMessageKind: String, Sendable, Equatable {
    case record
    case status
}

/// One message waiting for its PUBACK.
public struct OutboxMessage: Sendable, Equatable {
    public var id: OutboxMessageID
    public var topic: String
    public var payload: [UInt8]
    public var retained: Bool
    public var kind: OutboxMessageKind
    /// The trip, refuel or split the message carries, by its store id.
    public var recordID: Int64?

    public init(id: OutboxMessageID, topic: String, payload: [UInt8], retained: Bool, kind: OutboxMessageKind, recordID: Int64?) {
        self.id = id
        self.topic = topic
        self.payload = payload
        self.retained = retained
        self.kind = kind
        self.recordID = recordID
    }
}

/// How much the outbox may hold (from the board profile); a message's size is its topic and payload bytes.
public struct OutboxBudget: Sendable, Equatable {
    public var maximumMessages: Int
    public var maximumBytes: Int64

    public init(maximumMessages: Int, maximumBytes: Int64) {
        self.maximumMessages = maximumMessages
        self.maximumBytes = maximumBytes
    }
}

/// What the outbox holds and what it did, for `status`.
public struct OutboxStatistics: Sendable, Equatable {
    public var pendingMessages: Int
    /// Topic and payload bytes of the pending messages.
    public var pendingBytes: Int64
    public var pendingStatusMessages: Int
    public var oldestPending: OutboxMessageID?
    /// Acknowledged by the broker, over the store's life.
    public var sentMessages: Int64
    /// Dropped for the budget before they could be sent, over the store's life.
    public var droppedMessages: Int64
    public var droppedBytes: Int64
    public var lastDropped: OutboxMessageID?

    public init(
        pendingMessages: Int = 0, pendingBytes: Int64 = 0, pendingStatusMessages: Int = 0, oldestPending: OutboxMessageID? = nil,
        sentMessages: Int64 = 0, droppedMessages: Int64 = 0, droppedBytes: Int64 = 0, lastDropped: OutboxMessageID? = nil
    ) {
        self.pendingMessages = pendingMessages
        self.pendingBytes = pendingBytes
        self.pendingStatusMessages = pendingStatusMessages
        self.oldestPending = oldestPending
        self.sentMessages = sentMessages
        self.droppedMessages = droppedMessages
        self.droppedBytes = droppedBytes
        self.lastDropped = lastDropped
    }
}
