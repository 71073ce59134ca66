/// A message the hub refused and why, for `fairfuel hub status`: when it arrived (the hub's own
/// clock), the vehicle and topic kind it came under, its message id when it carried one.
public struct HubRefusal: Sendable, Equatable {
    public var receivedUTCMs: Int64
    public var vehicle: String
    public var kind: String
    public var messageID: Int64?
    public var reason: String

    public init(receivedUTCMs: Int64, vehicle: String, kind: String, messageID: Int64?, reason: String) {
        self.receivedUTCMs = receivedUTCMs
        self.vehicle = vehicle
        self.kind = kind
        self.messageID = messageID
        self.reason = reason
    }
}

/// The refusals' statements in the hub's database, in the SQL SQLite and PostgreSQL share: one
/// table for every instance of a `--share` group, so `hub status` shows what any of them refused.
public enum HubRefusalSQL {
    /// How many refusals the table keeps (the newest): a flood of bad messages cannot fill the disk.
    public static let maximumKept = 1_000

    /// `refusal_key` tells apart refusals of one millisecond (a batch's random prefix and its index),
    /// so that pruning keeps exactly `maximumKept`.
    public static let createTable = """
        CREATE TABLE hub_refusals (
            received_utc_ms BIGINT NOT NULL,
            refusal_key TEXT NOT NULL,
            vehicle TEXT NOT NULL,
            kind TEXT NOT NULL,
            message_id BIGINT,
            reason TEXT NOT NULL,
            PRIMARY KEY (received_utc_ms, refusal_key)
        )
        """
    /// A refusal's key: its batch's prefix, then its index in the batch zero-padded, so that a
    /// batch's keys sort in its order.
    public static func key(prefix: String, index: Int) -> String {
        let digits = String(index)
        return prefix + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    /// Parameters: received time, key, vehicle, kind, message id, reason.
    public static let insert = """
        INSERT INTO hub_refusals (received_utc_ms, refusal_key, vehicle, kind, message_id, reason)
        VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (received_utc_ms, refusal_key) DO NOTHING
        """
    /// Parameter: how many to keep.
    public static let prune = """
        DELETE FROM hub_refusals WHERE (received_utc_ms, refusal_key) NOT IN (
            SELECT received_utc_ms, refusal_key FROM hub_refusals ORDER BY received_utc_ms DESC, refusal_key DESC LIMIT $1)
        """
    /// Parameter: how many. The newest, listed oldest first.
    public static let list = """
        SELECT received_utc_ms, vehicle, kind, message_id, reason FROM (
            SELECT * FROM hub_refusals ORDER BY received_utc_ms DESC, refusal_key DESC LIMIT $1) AS newest
        ORDER BY received_utc_ms, refusal_key
        """
}
