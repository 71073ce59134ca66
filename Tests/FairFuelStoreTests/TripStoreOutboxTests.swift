import FairFuelCore
import FairFuelSQLite
@testable import FairFuelStore
import Testing

/// The uplink's outbox: written with its record, in order, deleted on PUBACK, within a budget.
@Suite struct TripStoreOutboxTests {
    static let roomy = OutboxBudget(maximumMessages: 1_000, maximumBytes: 1 << 20)

    struct RecordFailed: Error {}

    static func eventCount(_ store: TripStore) throws -> Int64 {
        try store.connection.scalarInt("SELECT count(*) FROM events") ?? -1
    }

    @Test func aMessageCommitsAndRollsBackWithItsRecord() throws {
        let store = try TripStore(path: temporaryStorePath())
        // The record's failure rolls back the whole transaction (write reports it as a StoreError).
        #expect(throws: StoreError.self) {
            try store.write {
                try store.connection.run("INSERT INTO events (t_utc_ms, kind, detail) VALUES (1, 'trip', 'first')")
                try store.enqueueOutboxMessage(
                    topic: "fairfuel/car/trip", payload: Array("{\"id\":1}".utf8), retained: false, recordID: 1, budget: Self.roomy)
                throw RecordFailed()
            }
        }
        #expect(try store.pendingOutboxMessages(limit: 10).isEmpty, "the failed transaction enqueued nothing")
        #expect(try Self.eventCount(store) == 0)

        let id = try store.write {
            try store.connection.run("INSERT INTO events (t_utc_ms, kind, detail) VALUES (2, 'trip', 'second')")
            return try store.enqueueOutboxMessage(topic: "fairfuel/car/trip", retained: false, recordID: 2, budget: Self.roomy) { id in
                Array("{\"message_id\":\(id),\"id\":2}".utf8)
            }
        }
        #expect(try Self.eventCount(store) == 1)
        let pending = try store.pendingOutboxMessages(limit: 10)
        #expect(pending.count == 1)
        #expect(pending.first?.id == id)
        #expect(pending.first.map { String(decoding: $0.payload, as: UTF8.self) } == "{\"message_id\":\(id),\"id\":2}")
        #expect(pending.first?.recordID == 2)
        #expect(pending.first?.retained == false)
        #expect(pending.first?.kind == .record)
        #expect(try Migrator([]).applied(in: store.connection).contains("2026-12-08-outbox"))
    }

    @Test func onlyAnAcknowledgedMessageIsMarkedSent() throws {
        let store = try TripStore(path: temporaryStorePath())
        let ids = try (1...4).map { index in
            try store.enqueueOutboxMessage(
                topic: "fairfuel/car/trip", payload: Array("\(index)".utf8), retained: false, recordID: Int64(index), budget: Self.roomy)
        }
        #expect(try store.markOutboxMessageSent(ids[1]))
        #expect(try store.markOutboxMessageSent(ids[1]) == false, "a second PUBACK for the same message changes nothing")
        #expect(try store.markOutboxMessageSent(OutboxMessageID(999)) == false)
        #expect(try store.pendingOutboxMessages(limit: 10).map(\.id) == [ids[0], ids[2], ids[3]])
        // In flight: the runtime asks only for what comes after the messages it already published.
        #expect(try store.pendingOutboxMessages(after: ids[2], limit: 10).map(\.id) == [ids[3]])
        #expect(try store.pendingOutboxMessages(limit: 2).map(\.id) == [ids[0], ids[2]])
        let statistics = try store.outboxStatistics()
        #expect(statistics.pendingMessages == 3)
        #expect(statistics.sentMessages == 1)
        #expect(statistics.oldestPending == ids[0])
        #expect(statistics.pendingBytes == 3 * Int64("fairfuel/car/trip".utf8.count + 1))
        #expect(statistics.droppedMessages == 0)
    }

    @Test func overBudgetTheOldestRecordsAreDroppedAndCountedButNeverTheStatus() throws {
        let path = temporaryStorePath()
        let store = try TripStore(path: path)
        let budget = OutboxBudget(maximumMessages: 5, maximumBytes: 1 << 20)
        try store.enqueueOutboxMessage(
            topic: "fairfuel/car/status", payload: Array("online".utf8), retained: true, kind: .status, budget: budget)
        var ids: [OutboxMessageID] = []
        for index in 1...8 {
            ids.append(try store.enqueueOutboxMessage(
                topic: "fairfuel/car/trip", payload: [UInt8](repeating: UInt8(index), count: 10), retained: false,
                recordID: Int64(index), budget: budget))
        }
        let pending = try store.pendingOutboxMessages(limit: 100)
        #expect(pending.count == 5)
        #expect(pending.first?.kind == .status, "the status message is the oldest and stays")
        #expect(pending.dropFirst().map(\.id) == Array(ids.suffix(4)))
        var statistics = try store.outboxStatistics()
        #expect(statistics.droppedMessages == 4)
        #expect(statistics.droppedBytes == 4 * Int64("fairfuel/car/trip".utf8.count + 10))
        #expect(statistics.lastDropped == ids[3])
        #expect(statistics.pendingStatusMessages == 1)

        // A newer status replaces the unsent one; it does not count as a drop.
        try store.enqueueOutboxMessage(
            topic: "fairfuel/car/status", payload: Array("offline".utf8), retained: true, kind: .status, budget: budget)
        #expect(try store.pendingOutboxMessages(limit: 100).filter { $0.kind == .status }.map(\.payload) == [Array("offline".utf8)])

        // A byte budget: three 10-byte payloads under the same topic fit in 3 * 27 bytes, a fourth pushes out the oldest.
        let bytes = OutboxBudget(maximumMessages: 100, maximumBytes: Int64(3 * ("fairfuel/car/trip".utf8.count + 10) + 20))
        try store.enqueueOutboxMessage(topic: "fairfuel/car/trip", payload: [UInt8](repeating: 0, count: 10), retained: false, budget: bytes)
        statistics = try store.outboxStatistics()
        #expect(statistics.pendingBytes <= bytes.maximumBytes)
        #expect(statistics.pendingStatusMessages == 1)
        #expect(statistics.pendingMessages == 3, "the status and the two newest trips")
        #expect(statistics.droppedMessages == 4 + 3)

        // The counts survive a reopen.
        let reopened = try TripStore(path: path)
        #expect(try reopened.outboxStatistics() == statistics)
    }

    @Test func orderAndIDsSurviveAReopenAndIDsAreNeverReused() throws {
        let path = temporaryStorePath()
        var ids: [OutboxMessageID] = []
        do {
            let store = try TripStore(path: path)
            for index in 1...10 {
                ids.append(try store.enqueueOutboxMessage(
                    topic: "fairfuel/car/\(index % 3 == 0 ? "refuel" : "trip")", payload: Array("\(index)".utf8), retained: false,
                    recordID: Int64(index), budget: Self.roomy))
            }
            #expect(ids == ids.sorted())
            try store.markOutboxMessageSent(ids[0])
        }
        let store = try TripStore(path: path)
        let pending = try store.pendingOutboxMessages(limit: 100)
        #expect(pending.map(\.id) == Array(ids.dropFirst()))
        #expect(pending.map { String(decoding: $0.payload, as: UTF8.self) } == (2...10).map(String.init))
        #expect(pending.map(\.topic).filter { $0.hasSuffix("refuel") }.count == 3)
        for message in pending { try store.markOutboxMessageSent(message.id) }
        #expect(try store.outboxStatistics().pendingMessages == 0)
        #expect(try store.outboxStatistics().sentMessages == 10)
        // Even with the outbox empty, a new message's id is above every earlier one.
        let next = try store.enqueueOutboxMessage(topic: "fairfuel/car/trip", payload: [1], retained: false, budget: Self.roomy)
        #expect(next > ids.last!)
    }

    @Test func theVehicleHasAStableUplinkIDThatIsNotItsName() throws {
        let path = temporaryStorePath()
        let id = try TripStore(path: path).vehicleUplinkID()
        #expect(id.utf8.count == 32)
        #expect(id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) })
        #expect(try TripStore(path: path).vehicleUplinkID() == id, "the same after a reopen")
        #expect(try TripStore(path: temporaryStorePath()).vehicleUplinkID() != id, "another car, another id")
    }

    @Test func anEmptyTopicIsRefused() throws {
        let store = try TripStore(path: temporaryStorePath())
        #expect(throws: StoreError.self) { try store.enqueueOutboxMessage(topic: "", payload: [1], retained: false, budget: Self.roomy) }
    }
}
