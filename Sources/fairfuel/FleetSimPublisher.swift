import FairFuelCore
import FairFuelEdges
import FairFuelStore

/// Publishes simulated cars' outboxes with QoS 1, car after car in outbox order, at a rate and
/// with at most `inflightWindow` awaiting their PUBACK; each message is marked sent in its car's
/// store on its PUBACK, and a dropped connection starts again from what is still pending.
struct FleetSimPublisher {
    let connection: HubConnectionOptions
    let publishPerSecond: Int
    static let inflightWindow = 64

    /// Returns how many messages were acknowledged.
    func publish(_ stores: [TripStore]) throws -> Int {
        let configuration = try connection.clientConfiguration(clientID: "fairfuel-fleet-sim-\(WallClock.utcMilliseconds() % 1_000_000)", cleanSession: true)
        let client: MQTTClient
        do { client = try MQTTClient(configuration: configuration) } catch { throw UserFacingError("fleet-sim: \(error)") }
        var inflight: [Int32: (car: Int, id: OutboxMessageID)] = [:]
        var cursor: (car: Int, after: OutboxMessageID?) = (0, nil)
        var acknowledged = 0
        var failure: String?
        client.setHandlers(MQTTClient.Handlers(
            acknowledged: { messageID, reason in
                guard let message = inflight.removeValue(forKey: messageID) else { return }
                guard reason < 0x80 else {
                    failure = "the broker refused a message (reason code \(reason))"
                    return
                }
                do {
                    _ = try stores[message.car].markOutboxMessageSent(message.id)
                    acknowledged += 1
                } catch {
                    failure = "\(error)"
                }
            },
            disconnected: { _, _ in
                inflight.removeAll()
                cursor = (0, nil)
            }))
        let clock = MonotonicClock()
        client.start(nowMs: clock.now.value)
        var tokens = 0.0
        var tokensAtMs = clock.now.value
        while failure == nil {
            let now = clock.now.value
            if client.state == .connected {
                tokens = min(Double(publishPerSecond), tokens + Double(now - tokensAtMs) * Double(publishPerSecond) / 1_000)
                tokensAtMs = now
                while tokens >= 1, inflight.count < Self.inflightWindow, cursor.car < stores.count {
                    let next = try pending(stores[cursor.car], after: cursor.after)
                    guard let message = next else {
                        cursor = (cursor.car + 1, nil)
                        continue
                    }
                    do {
                        inflight[try client.publish(topic: message.topic, payload: message.payload, retained: message.retained)] = (cursor.car, message.id)
                    } catch {
                        break
                    }
                    cursor.after = message.id
                    tokens -= 1
                }
                if cursor.car >= stores.count && inflight.isEmpty { break }
            }
            let wait = min(max(0, (client.nextServiceMs(nowMs: now) ?? now + 10) - now), 10)
            let ready = client.waitForReadiness(timeoutMs: Int32(wait))
            client.service(readable: ready.readable, writable: ready.writable, nowMs: clock.now.value)
            if client.state == .connected && client.wantsWrite { client.service(readable: false, writable: true, nowMs: clock.now.value) }
        }
        client.stop()
        if let failure { throw UserFacingError("fleet-sim: \(failure)") }
        return acknowledged
    }

    private func pending(_ store: TripStore, after: OutboxMessageID?) throws -> OutboxMessage? {
        do { return try store.pendingOutboxMessages(after: after, limit: 1).first } catch { throw UserFacingError("fleet-sim: \(error)") }
    }
}
