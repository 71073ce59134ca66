import FairFuelSQLite

/// The hub's read model of every car's records (docs/mqtt.md, "The hub's database") in a SQLite
/// file through the store layer's wrapper (`HubRecordStoring`; its PostgreSQL twin is the CLI's, in
/// FairFuelHubPostgres): one row per (vehicle, topic kind, record id) with its latest revision,
/// written in one statement per message, never a rewrite of a car.
///
/// Its own schema and migrations, apart from a car's store: the hub is another process on another
/// machine, and nothing of a car's tables belongs here.
public final class HubRecordStore: HubRecordStoring {
    public typealias Record = HubRecord
    public typealias Offer = HubOffer

    static let migrations = Migrator([
        Migration(
            "hub-2026-12-29-records",
            """
            CREATE TABLE hub_records (
                vehicle TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('trip', 'refuel', 'split')),
                record_id INTEGER NOT NULL,
                revision INTEGER NOT NULL,
                deleted INTEGER NOT NULL CHECK (deleted IN (0, 1)),
                message_id INTEGER,
                payload TEXT NOT NULL,
                PRIMARY KEY (vehicle, kind, record_id)
            ) WITHOUT ROWID;
            CREATE TABLE hub_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
            """),
        // Each car's identity, bound in the database that every hub instance shares rather than in one instance's directory.
        Migration("hub-2026-12-30-vehicle-uids", HubRecordSQL.createUIDs + " WITHOUT ROWID;"),
        Migration("hub-2026-12-31-stored-time", HubRecordSQL.addStoredTime + ";"),
        // The commands sent to the cars and their answers, shared by every hub instance and the hub's web app.
        Migration("hub-2027-01-02-commands", HubCommandSQL.createTable + " WITHOUT ROWID;"),
        // What the hub refused, shared by every instance of a group (it was each instance's own file).
        Migration("hub-2027-01-04-refusals", HubRefusalSQL.createTable + " WITHOUT ROWID;"),
    ])

    public let path: String
    public var location: String { path }
    let connection: SQLiteConnection

    /// Opens (making and migrating when new) the hub's database at `path`.
    public init(path: String) throws(StoreError) {
        self.path = path
        do {
            connection = try SQLiteConnection(path: path)
            connection.setBusyTimeout(milliseconds: 5_000)
            try connection.enableWriteAheadLog()
            // A hub killed loses at most the last commits; the car's resend brings them back.
            try connection.execute("PRAGMA synchronous = NORMAL")
        } catch {
            throw .sqlite(error)
        }
        do { try Self.migrations.migrate(connection) } catch {
            // Two hub instances opening a new database at once: the one that lost the race for a
            // migration finds it applied when it reads again.
            try Self.migrations.migrate(connection)
        }
    }

    /// Stores one message's record when its revision is above the stored one, in one statement.
    public func offer(vehicle: String, kind: String, id: Int64, revision: Int64, deleted: Bool, messageID: Int64?, payload: String, storedUTCMs: Int64)
        throws(StoreError) -> Offer
    {
        do {
            let stored = try connection.query(
                HubRecordSQL.offer, .text(vehicle), .text(kind), .integer(id), .integer(revision), .integer(deleted ? 1 : 0), .optional(messageID),
                .text(payload), .integer(storedUTCMs)
            ) { $0.int64(0) }
            return stored.isEmpty ? .stale : .kept
        } catch {
            throw StoreError(error)
        }
    }

    public func claimVehicleUID(_ uid: String, vehicle: String) throws(StoreError) -> String {
        do {
            _ = try connection.run(HubRecordSQL.claimUID, .text(uid), .text(vehicle))
            return try connection.scalarText(HubRecordSQL.uidOwner, .text(uid)) ?? ""
        } catch {
            throw StoreError(error)
        }
    }

    /// The vehicles the database holds, by id.
    public func vehicles() throws(StoreError) -> [String] {
        do { return try connection.query(HubRecordSQL.vehicles) { $0.text(0) ?? "" } } catch {
            throw .sqlite(error)
        }
    }

    /// Every record of `vehicle`, by kind and id.
    public func records(vehicle: String) throws(StoreError) -> [Record] {
        do {
            return try connection.query(
                HubRecordSQL.records, .text(vehicle)
            ) { Record(kind: $0.text(0) ?? "", id: $0.int64(1), revision: $0.int64(2), deleted: $0.int64(3) != 0, payload: $0.text(4) ?? "") }
        } catch {
            throw .sqlite(error)
        }
    }

    /// How many records the database holds (every vehicle, deletions included).
    public func recordCount() throws(StoreError) -> Int {
        do { return Int(try connection.scalarInt(HubRecordSQL.recordCount) ?? 0) } catch { throw .sqlite(error) }
    }

    public func kindSummaries() throws(StoreError) -> [HubKindSummary] {
        do {
            return try connection.query(HubRecordSQL.kindSummaries) {
                HubKindSummary(
                    vehicle: $0.text(0) ?? "", kind: $0.text(1) ?? "", live: Int($0.int64(2)), deleted: Int($0.int64(3)),
                    highestMessageID: $0.optionalInt64(4), lastStoredUTCMs: $0.optionalInt64(5))
            }
        } catch {
            throw .sqlite(error)
        }
    }

    public func highestMessageID(vehicle: String) throws(StoreError) -> Int64 {
        do { return try connection.scalarInt(HubRecordSQL.highestMessageID, .text(vehicle)) ?? 0 } catch { throw .sqlite(error) }
    }

    public func meta(_ key: String) throws(StoreError) -> String? {
        do { return try connection.scalarText(HubRecordSQL.meta, .text(key)) } catch { throw .sqlite(error) }
    }

    public func setMeta(_ key: String, _ value: String) throws(StoreError) {
        do { _ = try connection.run(HubRecordSQL.setMeta, .text(key), .text(value)) } catch {
            throw .sqlite(error)
        }
    }

    /// Runs `body` in one transaction (an import: thousands of offers, one commit).
    public func inOneTransaction(_ body: () throws -> Void) throws(StoreError) {
        do { try connection.transaction("IMMEDIATE", body) } catch { throw StoreError(error) }
    }
}
