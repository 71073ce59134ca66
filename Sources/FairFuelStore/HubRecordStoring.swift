/// One record a hub keeps: a car's latest revision of a trip, refuel or split, as its message carried it.
public struct HubRecord: Sendable, Equatable {
    public var kind: String
    public var id: Int64
    public var revision: Int64
    public var deleted: Bool
    public var payload: String

    public init(kind: String, id: Int64, revision: Int64, deleted: Bool, payload: String) {
        self.kind = kind
        self.id = id
        self.revision = revision
        self.deleted = deleted
        self.payload = payload
    }
}

/// What a hub's store holds of one car's records of one kind, for `fairfuel hub status`.
public struct HubKindSummary: Sendable, Equatable {
    public var vehicle: String
    public var kind: String
    /// Records not deleted.
    public var live: Int
    /// Deletions kept (so that an older revision cannot bring a record back).
    public var deleted: Int
    /// The highest `message_id` among them (nil: none carried one).
    public var highestMessageID: Int64?
    /// When the hub last stored one (its own clock; nil for records stored before it kept the time).
    public var lastStoredUTCMs: Int64?

    public init(vehicle: String, kind: String, live: Int, deleted: Int, highestMessageID: Int64?, lastStoredUTCMs: Int64?) {
        self.vehicle = vehicle
        self.kind = kind
        self.live = live
        self.deleted = deleted
        self.highestMessageID = highestMessageID
        self.lastStoredUTCMs = lastStoredUTCMs
    }
}

/// What became of a record offered to the hub's store.
public enum HubOffer: Sendable, Equatable {
    /// Stored: a new record, or a higher revision of one.
    case kept
    /// Its revision was not above the stored one: nothing changed.
    case stale
}

/// The hub's record store, whatever engine holds it (a SQLite file, `HubRecordStore`; a PostgreSQL
/// server, for several hub instances): one row per (vehicle, kind, record id) with its latest
/// revision. Every implementation offers a record in one statement, `INSERT … ON CONFLICT … DO
/// UPDATE … WHERE revision < excluded.revision`, so that two instances offering the same record
/// at once store it once and an older revision never replaces a newer one.
public protocol HubRecordStoring: AnyObject {
    /// Where the records are, for messages: a path, or a URL without its password.
    var location: String { get }
    /// Stores one message's record when its revision is above the stored one; `storedUTCMs` is the
    /// hub's own clock (when it stored the record, for its lag), never a time of the car's book.
    func offer(vehicle: String, kind: String, id: Int64, revision: Int64, deleted: Bool, messageID: Int64?, payload: String, storedUTCMs: Int64)
        throws(StoreError) -> HubOffer
    /// Binds `uid` (a car's `vehicle_uid`) to `vehicle` unless another vehicle claimed it first; the owner,
    /// empty when nobody owns it because `vehicle` holds `HubRecordSQL.maximumUIDsPerVehicle` already.
    func claimVehicleUID(_ uid: String, vehicle: String) throws(StoreError) -> String
    /// The vehicles the store holds, by id.
    func vehicles() throws(StoreError) -> [String]
    /// Every record of `vehicle`, by kind and id.
    func records(vehicle: String) throws(StoreError) -> [HubRecord]
    /// How many records the store holds (every vehicle, deletions included).
    func recordCount() throws(StoreError) -> Int
    /// Per vehicle and kind: the records, the highest message id, the last stored time.
    func kindSummaries() throws(StoreError) -> [HubKindSummary]
    /// The highest `message_id` stored for `vehicle` (0: none), what a `resend` asks the car to send after.
    func highestMessageID(vehicle: String) throws(StoreError) -> Int64
    func meta(_ key: String) throws(StoreError) -> String?
    func setMeta(_ key: String, _ value: String) throws(StoreError)
    /// Runs `body` in one transaction (an import: thousands of offers, one commit).
    func inOneTransaction(_ body: () throws -> Void) throws(StoreError)

    // The commands the hub sent its cars (`HubCommandSQL`), pending until a car's answer reaches the hub.
    /// Lists a command as pending (again, for an id sent before).
    func commandSent(vehicle: String, id: String, name: String, sentUTCMs: Int64) throws(StoreError)
    /// Forgets a pending command that never reached the broker.
    func commandWithdrawn(vehicle: String, id: String) throws(StoreError)
    /// Records a car's answer to a pending command (true), keeping the newest answered ones; false: nothing was pending under that id.
    func commandAnswered(vehicle: String, id: String, outcome: String, reason: String?, answeredUTCMs: Int64) throws(StoreError) -> Bool
    /// The commands of `vehicle` (nil: every car's), oldest first.
    func commands(vehicle: String?) throws(StoreError) -> [HubCommandEntry]
    /// How many of `vehicle`'s commands wait for its answer.
    func pendingCommandCount(vehicle: String) throws(StoreError) -> Int

    // The messages the hub refused (`HubRefusalSQL`), the newest `HubRefusalSQL.maximumKept`.
    /// Stores a batch in one transaction (one commit however many), each keyed by `keyPrefix` and its index (`HubRefusalSQL.key`).
    func refusalsRecorded(_ refusals: [HubRefusal], keyPrefix: String) throws(StoreError)
    /// The refusals kept, oldest first.
    func refusals() throws(StoreError) -> [HubRefusal]
    /// Offers `records` in order, in one transaction (a poll round's messages, one commit); each offer's outcome.
    func offerAll(_ records: [HubRecordOffer], storedUTCMs: Int64) throws(StoreError) -> [HubOffer]
    /// After a failure: when the connection to the database was lost, connects again (one attempt,
    /// throwing when it fails) and returns true; false when the failure was not a lost connection.
    func reconnectIfLost() throws(StoreError) -> Bool
}

/// One checked record message, as `HubRecordStoring.offerAll` takes it.
public struct HubRecordOffer: Sendable, Equatable {
    public var vehicle: String
    public var kind: String
    public var id: Int64
    public var revision: Int64
    public var deleted: Bool
    public var messageID: Int64?
    public var payload: String

    public init(vehicle: String, kind: String, id: Int64, revision: Int64, deleted: Bool, messageID: Int64?, payload: String) {
        self.vehicle = vehicle
        self.kind = kind
        self.id = id
        self.revision = revision
        self.deleted = deleted
        self.messageID = messageID
        self.payload = payload
    }
}

extension HubRecordStoring {
    /// Each record through `offer`, all in one transaction.
    public func offerAll(_ records: [HubRecordOffer], storedUTCMs: Int64) throws(StoreError) -> [HubOffer] {
        var outcomes: [HubOffer] = []
        outcomes.reserveCapacity(records.count)
        try inOneTransaction {
            for r in records {
                outcomes.append(try offer(
                    vehicle: r.vehicle, kind: r.kind, id: r.id, revision: r.revision, deleted: r.deleted, messageID: r.messageID, payload: r.payload,
                    storedUTCMs: storedUTCMs))
            }
        }
        return outcomes
    }

    /// A file has no connection to lose.
    public func reconnectIfLost() throws(StoreError) -> Bool { false }
}

/// The statements both engines run, in the SQL they share (SQLite numbers `$1` … as PostgreSQL does).
public enum HubRecordSQL {
    /// Parameters: vehicle, kind, record id, revision, deleted, message id, payload, stored time. Returns a row when stored.
    public static let offer = """
        INSERT INTO hub_records (vehicle, kind, record_id, revision, deleted, message_id, payload, stored_utc_ms)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
        \(keepNewerRevision)
        RETURNING revision
        """
    /// The rule of every offer: a record's row takes a revision only above the one it holds.
    public static let keepNewerRevision = """
        ON CONFLICT (vehicle, kind, record_id) DO UPDATE SET
            revision = excluded.revision, deleted = excluded.deleted, message_id = excluded.message_id, payload = excluded.payload,
            stored_utc_ms = excluded.stored_utc_ms
        WHERE hub_records.revision < excluded.revision
        """
    /// Parameters: uid, vehicle. Then `owner` with the uid gives the vehicle that claimed it first.
    /// A car gets a new `vehicle_uid` only when its store is made anew (a new dongle, a reset):
    /// a lifetime's worth of those. A vehicle id claiming uid after uid is copying other cars', and
    /// would otherwise grow `hub_vehicle_uids` with every message.
    public static let maximumUIDsPerVehicle = 8
    /// Binds a uid to a vehicle unless it is bound, or the vehicle holds `maximumUIDsPerVehicle`.
    public static let claimUID = """
        INSERT INTO hub_vehicle_uids (uid, vehicle) SELECT $1, $2
        WHERE (SELECT COUNT(*) FROM hub_vehicle_uids WHERE vehicle = $2) < \(maximumUIDsPerVehicle)
        ON CONFLICT (uid) DO NOTHING
        """
    public static let uidOwner = "SELECT vehicle FROM hub_vehicle_uids WHERE uid = $1"
    public static let vehicles = "SELECT DISTINCT vehicle FROM hub_records ORDER BY vehicle"
    public static let records = "SELECT kind, record_id, revision, deleted, payload FROM hub_records WHERE vehicle = $1 ORDER BY kind, record_id"
    public static let recordCount = "SELECT COUNT(*) FROM hub_records"
    /// Rows: vehicle, kind, live count, deleted count, highest message id, last stored time.
    public static let kindSummaries = """
        SELECT vehicle, kind, SUM(CASE WHEN deleted THEN 0 ELSE 1 END), SUM(CASE WHEN deleted THEN 1 ELSE 0 END), MAX(message_id),
               MAX(stored_utc_ms)
        FROM hub_records GROUP BY vehicle, kind ORDER BY vehicle, kind
        """
    /// Parameter: vehicle.
    public static let highestMessageID = "SELECT COALESCE(MAX(message_id), 0) FROM hub_records WHERE vehicle = $1"
    public static let meta = "SELECT value FROM hub_meta WHERE key = $1"
    public static let setMeta = "INSERT INTO hub_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
    /// The table of vehicle_uid bindings, in the SQL both engines take.
    public static let createUIDs = "CREATE TABLE hub_vehicle_uids (uid TEXT PRIMARY KEY, vehicle TEXT NOT NULL)"
    /// When the hub stored each record (its clock, milliseconds since 1970 UTC; null for records stored before).
    public static let addStoredTime = "ALTER TABLE hub_records ADD COLUMN stored_utc_ms BIGINT"
}
