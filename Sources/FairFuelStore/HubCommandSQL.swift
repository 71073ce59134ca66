/// A command the hub sent a car (`fairfuel hub command`, or the hub's web app) and what the car
/// answered: `pending` until its result reaches the hub, then `applied`, `refused` or `already_applied`.
public struct HubCommandEntry: Sendable, Equatable {
    public static let outcomes: Set<String> = ["applied", "refused", "already_applied"]

    public var vehicle: String
    public var id: String
    public var name: String
    public var sentUTCMs: Int64
    public var state: String
    public var reason: String?

    public init(vehicle: String, id: String, name: String, sentUTCMs: Int64, state: String, reason: String?) {
        self.vehicle = vehicle
        self.id = id
        self.name = name
        self.sentUTCMs = sentUTCMs
        self.state = state
        self.reason = reason
    }
}

/// The command log's statements in the hub's database, in the SQL SQLite and PostgreSQL share.
public enum HubCommandSQL {
    /// How many answered commands the log keeps (the newest); pending ones are never dropped.
    public static let maximumAnswered = 1_000

    public static let createTable = """
        CREATE TABLE hub_commands (
            vehicle TEXT NOT NULL,
            command_id TEXT NOT NULL,
            name TEXT NOT NULL,
            sent_utc_ms BIGINT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('pending', 'applied', 'refused', 'already_applied')),
            reason TEXT,
            answered_utc_ms BIGINT,
            PRIMARY KEY (vehicle, command_id)
        )
        """
    /// Parameters: vehicle, id, name, sent time. The same id sent again is pending again (the car answers it already_applied).
    public static let sent = """
        INSERT INTO hub_commands (vehicle, command_id, name, sent_utc_ms, state, reason, answered_utc_ms)
        VALUES ($1, $2, $3, $4, 'pending', NULL, NULL)
        ON CONFLICT (vehicle, command_id) DO UPDATE SET
            name = excluded.name, sent_utc_ms = excluded.sent_utc_ms, state = 'pending', reason = NULL, answered_utc_ms = NULL
        """
    /// Parameters: vehicle, id. A command that never reached the broker is not listed as sent.
    public static let withdrawn = "DELETE FROM hub_commands WHERE vehicle = $1 AND command_id = $2 AND state = 'pending'"
    /// Parameters: outcome, reason, answer time, vehicle, id (numbered in the order they appear: SQLite
    /// gives `$N` its index by first appearance). Returns a row when it answered a pending command.
    public static let answered = """
        UPDATE hub_commands SET state = $1, reason = $2, answered_utc_ms = $3
        WHERE vehicle = $4 AND command_id = $5 AND state = 'pending'
        RETURNING command_id
        """
    /// Parameter: how many answered commands to keep.
    public static let pruneAnswered = """
        DELETE FROM hub_commands WHERE state <> 'pending' AND (vehicle, command_id) NOT IN (
            SELECT vehicle, command_id FROM hub_commands WHERE state <> 'pending'
            ORDER BY answered_utc_ms DESC, command_id DESC LIMIT $1)
        """
    /// Parameter: a vehicle, or '' for every one. Oldest first.
    public static let list = """
        SELECT vehicle, command_id, name, sent_utc_ms, state, reason FROM hub_commands
        WHERE $1 = '' OR vehicle = $1 ORDER BY sent_utc_ms, vehicle, command_id
        """
    /// Parameter: a vehicle.
    public static let pendingCount = "SELECT COUNT(*) FROM hub_commands WHERE vehicle = $1 AND state = 'pending'"
}
