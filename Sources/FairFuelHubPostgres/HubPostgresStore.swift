import FairFuelStore
import Logging
import NIOCore
import NIOPosix
import PostgresNIO

/// The hub's record store on a PostgreSQL server (`fairfuel hub --db postgres://...`): the same
/// tables, the same statements (`HubRecordSQL`) and the same idempotent offer as the SQLite file,
/// for many cars and several hub instances on one database.
///
/// Synchronous, as the hub's poll loop is: one connection on an event loop thread of its own,
/// each statement waited for. Every statement outside `inOneTransaction` commits on its own.
public final class HubPostgresStore: HubRecordStoring {
    public let location: String
    private let group: MultiThreadedEventLoopGroup
    private var connection: PostgresConnection
    private let configuration: PostgresConnection.Configuration
    private let logger: Logger
    private var inTransaction = false

    /// Each migration's statements, applied once under an advisory lock (two instances starting at once wait for each other).
    static let migrations: [(name: String, statements: [String])] = [
        (
            "hub-2026-12-29-records",
            [
                """
                CREATE TABLE hub_records (
                    vehicle TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('trip', 'refuel', 'split')),
                    record_id BIGINT NOT NULL,
                    revision BIGINT NOT NULL,
                    deleted BOOLEAN NOT NULL,
                    message_id BIGINT,
                    payload TEXT NOT NULL,
                    PRIMARY KEY (vehicle, kind, record_id)
                )
                """,
                "CREATE TABLE hub_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            ]
        ),
        ("hub-2026-12-30-vehicle-uids", [HubRecordSQL.createUIDs]),
        ("hub-2026-12-31-stored-time", [HubRecordSQL.addStoredTime]),
        ("hub-2027-01-02-commands", [HubCommandSQL.createTable]),
        ("hub-2027-01-04-refusals", [HubRefusalSQL.createTable]),
    ]
    /// The advisory lock's key: "FFHUB" in ASCII.
    static let migrationLock: Int64 = 0x46_46_48_55_42

    /// Connects to `url` (a `postgres://` URL; `password` when the URL has none) and migrates its tables.
    public init(url text: String, password: String? = nil) throws(StoreError) {
        let url = try HubPostgresURL.parse(text, environment: password)
        location = url.redacted
        var logger = Logger(label: "fairfuel.hub.postgres")
        logger.logLevel = .error
        self.logger = logger
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            var configuration = PostgresConnection.Configuration(
                host: url.host, port: url.port, username: url.user, password: url.password, database: url.database, tls: .disable)
            switch url.tls {
            case .disable: break
            case .prefer: configuration.tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case .require: configuration.tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
            configuration.options.connectTimeout = .seconds(10)
            self.configuration = configuration
            connection = try PostgresConnection.connect(on: group.next(), configuration: configuration, id: 1, logger: logger).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw .invalid("PostgreSQL \(location): cannot connect: \(Self.describe(error))")
        }
        do {
            try migrate()
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    private var closed = false
    /// Closes the connection and its thread (also on deinit).
    public func close() {
        guard !closed else { return }
        closed = true
        try? connection.close().wait()
        try? group.syncShutdownGracefully()
    }

    public func offer(vehicle: String, kind: String, id: Int64, revision: Int64, deleted: Bool, messageID: Int64?, payload: String, storedUTCMs: Int64)
        throws(StoreError) -> HubOffer
    {
        var binds = PostgresBindings(capacity: 8)
        binds.append(vehicle)
        binds.append(kind)
        binds.append(id)
        binds.append(revision)
        binds.append(deleted)
        binds.append(messageID)
        binds.append(payload)
        binds.append(storedUTCMs)
        return try rows(HubRecordSQL.offer, binds).isEmpty ? .stale : .kept
    }

    public func claimVehicleUID(_ uid: String, vehicle: String) throws(StoreError) -> String {
        var binds = PostgresBindings(capacity: 2)
        binds.append(uid)
        binds.append(vehicle)
        _ = try rows(HubRecordSQL.claimUID, binds)
        var owner = PostgresBindings(capacity: 1)
        owner.append(uid)
        return try rows(HubRecordSQL.uidOwner, owner).first.map { row throws(StoreError) in try decode(row, String.self) } ?? ""
    }

    public func vehicles() throws(StoreError) -> [String] {
        try rows(HubRecordSQL.vehicles).map { row throws(StoreError) in try decode(row, String.self) }
    }

    public func records(vehicle: String) throws(StoreError) -> [HubRecord] {
        var binds = PostgresBindings(capacity: 1)
        binds.append(vehicle)
        return try rows(HubRecordSQL.records, binds).map { row throws(StoreError) in
            let (kind, id, revision, deleted, payload) = try decode(row, (String, Int64, Int64, Bool, String).self)
            return HubRecord(kind: kind, id: id, revision: revision, deleted: deleted, payload: payload)
        }
    }

    public func recordCount() throws(StoreError) -> Int {
        Int(try rows(HubRecordSQL.recordCount).first.map { row throws(StoreError) in try decode(row, Int64.self) } ?? 0)
    }

    public func kindSummaries() throws(StoreError) -> [HubKindSummary] {
        try rows(HubRecordSQL.kindSummaries).map { row throws(StoreError) in
            let (vehicle, kind, live, deleted, message, stored) = try decode(row, (String, String, Int64, Int64, Int64?, Int64?).self)
            return HubKindSummary(vehicle: vehicle, kind: kind, live: Int(live), deleted: Int(deleted), highestMessageID: message, lastStoredUTCMs: stored)
        }
    }

    public func highestMessageID(vehicle: String) throws(StoreError) -> Int64 {
        var binds = PostgresBindings(capacity: 1)
        binds.append(vehicle)
        return try rows(HubRecordSQL.highestMessageID, binds).first.map { row throws(StoreError) in try decode(row, Int64.self) } ?? 0
    }

    public func meta(_ key: String) throws(StoreError) -> String? {
        var binds = PostgresBindings(capacity: 1)
        binds.append(key)
        return try rows(HubRecordSQL.meta, binds).first.map { row throws(StoreError) in try decode(row, String.self) }
    }

    public func setMeta(_ key: String, _ value: String) throws(StoreError) {
        var binds = PostgresBindings(capacity: 2)
        binds.append(key)
        binds.append(value)
        _ = try rows(HubRecordSQL.setMeta, binds)
    }

    public func inOneTransaction(_ body: () throws -> Void) throws(StoreError) {
        guard !inTransaction else {
            do { try body() } catch { throw Self.storeError(error) }
            return
        }
        _ = try rows("BEGIN")
        inTransaction = true
        defer { inTransaction = false }
        do {
            try body()
            _ = try rows("COMMIT")
        } catch {
            _ = try? rows("ROLLBACK")
            throw Self.storeError(error)
        }
    }

    // MARK: The command log (`HubCommandSQL`, the statements SQLite runs too)

    public func commandSent(vehicle: String, id: String, name: String, sentUTCMs: Int64) throws(StoreError) {
        var binds = PostgresBindings(capacity: 4)
        binds.append(vehicle)
        binds.append(id)
        binds.append(name)
        binds.append(sentUTCMs)
        _ = try rows(HubCommandSQL.sent, binds)
    }

    public func commandWithdrawn(vehicle: String, id: String) throws(StoreError) {
        var binds = PostgresBindings(capacity: 2)
        binds.append(vehicle)
        binds.append(id)
        _ = try rows(HubCommandSQL.withdrawn, binds)
    }

    public func commandAnswered(vehicle: String, id: String, outcome: String, reason: String?, answeredUTCMs: Int64) throws(StoreError) -> Bool {
        var binds = PostgresBindings(capacity: 5)
        binds.append(outcome)
        binds.append(reason)
        binds.append(answeredUTCMs)
        binds.append(vehicle)
        binds.append(id)
        var answered = false
        try inOneTransaction {
            answered = !(try rows(HubCommandSQL.answered, binds)).isEmpty
            var keep = PostgresBindings(capacity: 1)
            keep.append(Int64(HubCommandSQL.maximumAnswered))
            if answered { _ = try rows(HubCommandSQL.pruneAnswered, keep) }
        }
        return answered
    }

    public func commands(vehicle: String?) throws(StoreError) -> [HubCommandEntry] {
        var binds = PostgresBindings(capacity: 1)
        binds.append(vehicle ?? "")
        return try rows(HubCommandSQL.list, binds).map { row throws(StoreError) in
            let (vehicle, id, name, sent, state, reason) = try decode(row, (String, String, String, Int64, String, String?).self)
            return HubCommandEntry(vehicle: vehicle, id: id, name: name, sentUTCMs: sent, state: state, reason: reason)
        }
    }

    public func pendingCommandCount(vehicle: String) throws(StoreError) -> Int {
        var binds = PostgresBindings(capacity: 1)
        binds.append(vehicle)
        return Int(try rows(HubCommandSQL.pendingCount, binds).first.map { row throws(StoreError) in try decode(row, Int64.self) } ?? 0)
    }

    /// The records of a batch in as few statements as their keys allow: one `INSERT … SELECT FROM
    /// unnest(…)` per wave, a wave holding each (vehicle, kind, id) at most once (PostgreSQL updates a
    /// row once per statement), in the order they came; almost always one wave, so one round trip
    /// for the poll round instead of one per message. Several waves run in one transaction.
    public func offerAll(_ records: [HubRecordOffer], storedUTCMs: Int64) throws(StoreError) -> [HubOffer] {
        guard !records.isEmpty else { return [] }
        var waves: [[Int]] = []
        var wavesOfKey: [String: Int] = [:]
        for (index, record) in records.enumerated() {
            let key = "\(record.vehicle)/\(record.kind)/\(record.id)"
            let wave = wavesOfKey[key, default: 0]
            wavesOfKey[key] = wave + 1
            if wave == waves.count { waves.append([]) }
            waves[wave].append(index)
        }
        var outcomes = [HubOffer](repeating: .stale, count: records.count)
        func run() throws(StoreError) {
            for wave in waves {
                let batch = wave.map { records[$0] }
                var binds = PostgresBindings(capacity: 8)
                binds.append(batch.map(\.vehicle))
                binds.append(batch.map(\.kind))
                binds.append(batch.map(\.id))
                binds.append(batch.map(\.revision))
                binds.append(batch.map(\.deleted))
                // No array of optionals: a message id is never negative (the hub's checks refuse it), so -1 is none.
                binds.append(batch.map { $0.messageID ?? -1 })
                binds.append(batch.map(\.payload))
                binds.append(storedUTCMs)
                let stored = try rows(Self.offerWave, binds).map { row throws(StoreError) in try decode(row, (String, String, Int64).self) }
                let keys = Set(stored.map { "\($0.0)/\($0.1)/\($0.2)" })
                for index in wave where keys.contains("\(records[index].vehicle)/\(records[index].kind)/\(records[index].id)") {
                    outcomes[index] = .kept
                }
            }
        }
        if waves.count == 1 || inTransaction { try run() } else { try inOneTransaction { try run() } }
        return outcomes
    }

    /// `HubRecordSQL.offer` for many records: parameters the columns as arrays, then the stored time.
    static let offerWave = """
        INSERT INTO hub_records (vehicle, kind, record_id, revision, deleted, message_id, payload, stored_utc_ms)
        SELECT v, k, i, r, d, NULLIF(m, -1), p, $8
        FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::boolean[], $6::bigint[], $7::text[]) AS u(v, k, i, r, d, m, p)
        \(HubRecordSQL.keepNewerRevision)
        RETURNING vehicle, kind, record_id
        """

    /// A server restarted or a network cut closes the connection: a new one, as the first was made.
    public func reconnectIfLost() throws(StoreError) -> Bool {
        guard !closed else { return false }
        // An answer to the simplest statement: the connection works and the failure was the statement's.
        if !connection.isClosed, (try? rows("SELECT 1")) != nil { return false }
        // Not waited for: a close waits for the statements queued before it, which a lost server never answers.
        connection.close().whenComplete { _ in }
        do {
            connection = try PostgresConnection.connect(on: group.next(), configuration: configuration, id: 1, logger: logger).wait()
        } catch {
            throw .invalid("PostgreSQL \(location): cannot connect: \(Self.describe(error))")
        }
        inTransaction = false
        return true
    }

    // MARK: The refusals (`HubRefusalSQL`, the statements SQLite runs too)

    public func refusalsRecorded(_ refusals: [HubRefusal], keyPrefix: String) throws(StoreError) {
        guard !refusals.isEmpty else { return }
        // One commit for the batch: a flood of bad messages costs one WAL flush a batch, not one each.
        try inOneTransaction {
            for (index, refusal) in refusals.enumerated() {
                var binds = PostgresBindings(capacity: 6)
                binds.append(refusal.receivedUTCMs)
                binds.append(HubRefusalSQL.key(prefix: keyPrefix, index: index))
                binds.append(refusal.vehicle)
                binds.append(refusal.kind)
                binds.append(refusal.messageID)
                binds.append(refusal.reason)
                _ = try rows(HubRefusalSQL.insert, binds)
            }
            var keep = PostgresBindings(capacity: 1)
            keep.append(Int64(HubRefusalSQL.maximumKept))
            _ = try rows(HubRefusalSQL.prune, keep)
        }
    }

    public func refusals() throws(StoreError) -> [HubRefusal] {
        var binds = PostgresBindings(capacity: 1)
        binds.append(Int64(HubRefusalSQL.maximumKept))
        return try rows(HubRefusalSQL.list, binds).map { row throws(StoreError) in
            let (received, vehicle, kind, message, reason) = try decode(row, (Int64, String, String, Int64?, String).self)
            return HubRefusal(receivedUTCMs: received, vehicle: vehicle, kind: kind, messageID: message, reason: reason)
        }
    }

    private func migrate() throws(StoreError) {
        try inOneTransaction {
            _ = try rows("SELECT pg_advisory_xact_lock(\(Self.migrationLock))")
            _ = try rows("CREATE TABLE IF NOT EXISTS hub_migrations (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")
            let applied = Set(try rows("SELECT name FROM hub_migrations").map { row throws(StoreError) in try decode(row, String.self) })
            let unknown = applied.subtracting(Self.migrations.map(\.name))
            if !unknown.isEmpty { throw StoreError.newerSchema(path: location, unknownMigrations: unknown.sorted()) }
            for migration in Self.migrations where !applied.contains(migration.name) {
                for statement in migration.statements { _ = try rows(statement) }
                var binds = PostgresBindings(capacity: 1)
                binds.append(migration.name)
                _ = try rows("INSERT INTO hub_migrations (name) VALUES ($1)", binds)
            }
        }
    }

    /// The longest the hub waits for one statement's answer before it takes the connection for lost.
    static let statementTimeout = TimeAmount.seconds(30)

    /// A statement on a connection the server already closed is never answered (its future never
    /// completes): refused here, as a lost connection that `reconnectIfLost` makes again.
    private func requireOpen() throws(StoreError) {
        if connection.isClosed { throw .invalid("PostgreSQL \(location): the connection was closed") }
    }

    /// `future`'s value, or a failure after `statementTimeout` (a connection closed mid-batch may leave a statement unanswered).
    private func waitBounded<T: Sendable>(_ future: EventLoopFuture<T>) throws -> T {
        let promise = future.eventLoop.makePromise(of: T.self)
        future.cascade(to: promise)
        let timeout = future.eventLoop.scheduleTask(in: Self.statementTimeout) {
            promise.fail(StoreError.invalid("no answer in \(Self.statementTimeout.nanoseconds / 1_000_000_000) s"))
        }
        defer { timeout.cancel() }
        return try promise.futureResult.wait()
    }

    private func rows(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws(StoreError) -> [PostgresRow] {
        try requireOpen()
        do {
            return Array(try waitBounded(connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)))
        } catch {
            throw .invalid("PostgreSQL \(location): \(Self.describe(error))")
        }
    }

    private func decode<T: PostgresDecodable>(_ row: PostgresRow, _ type: T.Type) throws(StoreError) -> T {
        do { return try row.decode(T.self) } catch { throw .invalid("PostgreSQL \(location): unexpected column: \(Self.describe(error))") }
    }

    private func decode<each T: PostgresDecodable>(_ row: PostgresRow, _ types: (repeat each T).Type) throws(StoreError) -> (repeat each T) {
        do { return try row.decode((repeat each T).self) } catch { throw .invalid("PostgreSQL \(location): unexpected columns: \(Self.describe(error))") }
    }

    private static func storeError(_ error: any Error) -> StoreError {
        (error as? StoreError) ?? .invalid(describe(error))
    }

    /// The server's own message when it sent one (PSQLError hides it from `description`), else the error's kind.
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            return "\(error.code)" + (error.underlying.map { ": \($0)" } ?? "")
        }
        return "\(error)"
    }
}
