import FairFuelCore
import FairFuelEdges
import FairFuelStore

/// A poll round's messages stored in one transaction: each checked alone (a refused one is left
/// out and never spoils the others), the rest offered together, one commit for all.
extension HubCollector {
    /// The most messages a hub holds and stores in one transaction. A round brings at most what
    /// the broker lets a session have unacknowledged (Mosquitto's `max_inflight_messages`, 20 by
    /// default) times the reads the hub makes while more keep arriving; the bound keeps a commit
    /// short and the messages in hand few when the database goes away.
    public static let maximumHeldMessages = 256

    /// How many messages wait for `storeHeld`.
    public var heldCount: Int { held.count }

    /// Keeps a message for the next `storeHeld`. The caller reads no more once `maximumHeldMessages`
    /// are held (`wantsMessages`), and a read brings a few at most, so the list stays bounded.
    public func hold(topic: String, payload: [UInt8]) {
        if held.capacity < Self.maximumHeldMessages { held.reserveCapacity(Self.maximumHeldMessages) }
        held.append((topic, payload))
    }

    /// Whether the hub should read more messages: room among the held ones and the database reachable.
    public var wantsMessages: Bool { held.count < Self.maximumHeldMessages && databaseRetryAtMs == nil }

    /// The first wait after the database went away: a server restarting is back within about a second.
    static let databaseRetryFirstMs: Int64 = 200
    /// The longest wait between attempts to reach it.
    static let databaseRetryLongestMs: Int64 = 10_000

    /// Stores the held messages as `storeHeld()` does, but a lost database connection is no failure:
    /// the messages stay held, `databaseRetryAtMs` says when the next attempt is (the wait doubling
    /// from `databaseRetryFirstMs` to `databaseRetryLongestMs`), and the hub reads nothing more
    /// meanwhile (the broker keeps the session's messages). Any other failure throws.
    public func storeHeld(nowMs: Int64, log: (String) -> Void) throws(PullClientError) -> [(topic: String, outcome: Outcome)] {
        if let retryAtMs = databaseRetryAtMs {
            guard nowMs >= retryAtMs else { return [] }
            do { _ = try reconnectDatabaseIfLost() } catch {
                waitForDatabase(nowMs: nowMs)
                return []
            }
        }
        do {
            let stored = try storeHeld()
            if databaseRetryAtMs != nil { log("hub: the database is back; the \(stored.count) message(s) held are stored") }
            databaseRetryAtMs = nil
            databaseBackoffMs = 0
            return stored
        } catch {
            let reconnected: Bool
            do { reconnected = try reconnectDatabaseIfLost() } catch let unreachable {
                if databaseRetryAtMs == nil { log("hub: \(unreachable); holding \(held.count) message(s), trying again with backoff") }
                waitForDatabase(nowMs: nowMs)
                return []
            }
            guard reconnected else { throw error }
            if databaseRetryAtMs == nil { log("hub: \(error); connected again, storing the \(held.count) message(s) held") }
            databaseRetryAtMs = nowMs
            return []
        }
    }

    private func waitForDatabase(nowMs: Int64) {
        databaseBackoffMs = databaseBackoffMs == 0 ? Self.databaseRetryFirstMs : min(Self.databaseRetryLongestMs, databaseBackoffMs * 2)
        databaseRetryAtMs = nowMs + databaseBackoffMs
    }

    /// Stores the held messages (with a database, in one transaction) and lets them go; what
    /// became of each, in order. When it throws, every message is still held, for another try.
    public func storeHeld() throws(PullClientError) -> [(topic: String, outcome: Outcome)] {
        guard !held.isEmpty else { return [] }
        let outcomes = try storeInOneTransaction(held)
        defer { held.removeAll(keepingCapacity: true) }
        return zip(held, outcomes).map { ($0.0.topic, $0.1) }
    }

    /// After `storeHeld` failed: true when the database's connection had been lost and is made
    /// again (the held messages can be stored now); false when the failure was something else.
    public func reconnectDatabaseIfLost() throws(PullClientError) -> Bool {
        guard let database else { return false }
        do { return try database.reconnectIfLost() } catch { throw .file("hub database \(database.location): \(error)") }
    }

    /// Checks each message alone, then offers the records among them in one transaction; nothing is
    /// counted or kept as refused unless the transaction committed (a retry would count twice).
    func storeInOneTransaction(_ messages: [(topic: String, payload: [UInt8])]) throws(PullClientError) -> [Outcome] {
        guard let database else {
            var outcomes: [Outcome] = []
            for message in messages {
                let outcome = try receive(topic: message.topic, payload: message.payload)
                outcomes.append(outcome)
            }
            return outcomes
        }
        var outcomes: [Outcome] = []
        var records: [HubRecordOffer] = []
        var positions: [Int] = []
        outcomes.reserveCapacity(messages.count)
        records.reserveCapacity(messages.count)
        positions.reserveCapacity(messages.count)
        for (index, message) in messages.enumerated() {
            switch try check(topic: message.topic, payload: message.payload) {
            case let .record(record):
                records.append(record)
                positions.append(index)
                outcomes.append(.kept)
            case let .outcome(outcome):
                outcomes.append(outcome)
            }
        }
        let offers: [HubOffer]
        do { offers = try database.offerAll(records, storedUTCMs: WallClock.utcMilliseconds()) } catch {
            throw .file("hub database \(database.location): \(error)")
        }
        for (offer, index) in zip(offers, positions) { outcomes[index] = offer == .kept ? .kept : .stale }
        for (message, outcome) in zip(messages, outcomes) { try count(outcome, topic: message.topic, payload: message.payload) }
        return outcomes
    }
}
