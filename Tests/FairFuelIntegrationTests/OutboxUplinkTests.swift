import FairFuelCore
import FairFuelEdges
import FairFuelStore
import Foundation
import Testing
import TestSupport

/// What the runtime will do once wired (issue #16): keep a window of outbox messages in flight,
/// mark each sent on its PUBACK, and start again from the oldest pending one after a reconnect.
final class OutboxPublisher {
    let store: TripStore
    var client: MQTTClient!
    let window = 8
    var inFlight: [Int32: OutboxMessageID] = [:]
    var cursor: OutboxMessageID?
    /// Publishing stops once this many are acknowledged or in flight.
    var limit = Int.max
    var acknowledged = 0
    var disconnects = 0

    init(store: TripStore, configuration: MQTTClientConfiguration) throws {
        self.store = store
        client = try MQTTClient(configuration: configuration)
        client.setHandlers(MQTTClient.Handlers(
            connected: { [unowned self] in
                inFlight = [:]
                cursor = nil
                fill()
            },
            acknowledged: { [unowned self] messageID, reasonCode in
                if let id = inFlight.removeValue(forKey: messageID), reasonCode < 0x80, (try? store.markOutboxMessageSent(id)) == true {
                    acknowledged += 1
                }
                fill()
            },
            disconnected: { [unowned self] _, _ in
                inFlight = [:]
                cursor = nil
                disconnects += 1
            }))
    }

    func fill() {
        guard client.state == .connected else { return }
        while inFlight.count < window, acknowledged + inFlight.count < limit {
            guard let next = (try? store.pendingOutboxMessages(after: cursor, limit: 1))?.first,
                  let messageID = try? client.publish(topic: next.topic, payload: next.payload, retained: next.retained)
            else { return }
            inFlight[messageID] = next.id
            cursor = next.id
        }
    }

    static func nowMs() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000 + Int64(time.tv_nsec) / 1_000_000
    }

    /// The poll loop: until `done` holds or `seconds` pass.
    @discardableResult
    func run(seconds: Double, until done: () -> Bool) -> Bool {
        let deadline = Self.nowMs() + Int64(seconds * 1_000)
        while !done() {
            let now = Self.nowMs()
            guard now < deadline else { return false }
            let timeout = Int32(clamping: max(0, min(client.nextServiceMs(nowMs: now) ?? deadline, deadline) - now))
            // Between attempts (no socket) `done` is checked at least every 50 ms.
            let ready = client.waitForReadiness(timeoutMs: client.descriptor == nil ? min(timeout, 50) : timeout)
            client.service(readable: ready.readable, writable: ready.writable, nowMs: Self.nowMs())
        }
        return true
    }
}

@Suite(.tags(.integration)) struct OutboxUplinkTests {
    /// `{"message_id":N,...}` of a `mosquitto_sub -v` line.
    static func messageID(_ line: String) -> Int64? {
        guard let range = line.range(of: "\"message_id\":") else { return nil }
        return Int64(line[range.upperBound...].prefix { $0.isNumber })
    }

    @Test(
        "30 outbox messages through a broker restart and a killed publisher: every one arrives, in order, duplicates carry the same id",
        .enabled(if: MosquittoHarness.toolsPresent, "\(MosquittoHarness.missingMessage)"), .timeLimit(.minutes(1)))
    func nothingLostInOrderDuplicatesRecognisable() throws {
        let harness = try MosquittoHarness(persistent: true)
        defer { harness.shutDown() }
        let path = NSTemporaryDirectory() + "fairfuel-outbox-\(UUID().uuidString.prefix(8)).db"
        defer { for suffix in ["", "-wal", "-shm", "-reserve"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        var store: TripStore? = try TripStore(path: path)
        let vehicle = try store!.vehicleUplinkID()
        let budget = OutboxBudget(maximumMessages: 1_000, maximumBytes: 1 << 20)
        var expected: [Int64] = []
        for index in 1...30 {
            let topic = "fairfuel/\(vehicle)/" + ["trip", "trip", "refuel", "split"][index % 4]
            let id = try store!.write {
                try store!.enqueueOutboxMessage(topic: topic, retained: false, recordID: Int64(index), budget: budget) { id in
                    Array("{\"v\":1,\"message_id\":\(id),\"vehicle\":\"\(vehicle)\",\"id\":\(index)}".utf8)
                }
            }
            expected.append(id.rawValue)
        }
        let subscriber = try harness.subscribe(topic: "fairfuel/\(vehicle)/#", count: 1_000, seconds: 30, sessionID: "hub")
        let configuration = MQTTClientConfiguration(
            host: "127.0.0.1", port: harness.port, clientID: "car-\(vehicle.prefix(8))", keepAliveSeconds: 5,
            backoffMinimumMs: 50, backoffMaximumMs: 400, connectTimeoutMs: 3_000)

        var publisher: OutboxPublisher? = try OutboxPublisher(store: store!, configuration: configuration)
        publisher!.client.start(nowMs: OutboxPublisher.nowMs())
        #expect(publisher!.run(seconds: 5) { publisher!.acknowledged >= 8 })
        // The broker goes away with messages in flight, and comes back.
        harness.stop()
        #expect(publisher!.run(seconds: 5) { publisher!.disconnects >= 1 })
        publisher!.limit = 16
        try harness.start()
        #expect(publisher!.run(seconds: 10) { publisher!.acknowledged == 16 && publisher!.inFlight.isEmpty })
        // Killed mid-publish: eight messages written to the broker, their PUBACKs never read.
        publisher!.limit = Int.max
        publisher!.fill()
        #expect(publisher!.inFlight.count == 8)
        let sentBeforeKill = try store!.outboxStatistics().sentMessages
        usleep(300_000)
        publisher = nil
        store = nil

        // Restarted: a new store handle and a new client send what is still pending.
        let reopened = try TripStore(path: path)
        #expect(try reopened.outboxStatistics().sentMessages == sentBeforeKill)
        #expect(try reopened.outboxStatistics().pendingMessages == 30 - Int(sentBeforeKill))
        let restarted = try OutboxPublisher(store: reopened, configuration: configuration)
        restarted.client.start(nowMs: OutboxPublisher.nowMs())
        #expect(restarted.run(seconds: 10) { (try? reopened.outboxStatistics().pendingMessages) == 0 }, "\(harness.logs)")
        #expect(try reopened.outboxStatistics().sentMessages == 30)

        // The subscriber (a persistent session: it missed nothing while the broker restarted).
        var ids: [Int64] = []
        let deadline = Date().addingTimeInterval(15)
        repeat {
            ids = subscriber.log.split(separator: "\n").compactMap { Self.messageID(String($0)) }
            if Set(ids).count == 30 { break }
            usleep(50_000)
        } while Date() < deadline
        var seen = Set<Int64>()
        let firstOccurrences = ids.filter { seen.insert($0).inserted }
        #expect(firstOccurrences == expected, "\(subscriber.log)")
        #expect(ids.count - firstOccurrences.count >= 8, "the killed publisher's eight messages came twice, recognisable by id")
        restarted.client.stop()
    }
}
