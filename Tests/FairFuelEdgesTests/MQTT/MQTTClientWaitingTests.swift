import FairFuelEdges
import Foundation
import Testing
import TestSupport

/// `waitForReadiness`, the poll of a loop that owns only this client (`fairfuel hub`), against a real broker.
@Suite(.serialized, .tags(.integration)) struct MQTTClientWaitingTests {
    static func milliseconds(_ body: () -> Void) -> Int64 {
        let clock = MonotonicClock()
        body()
        return clock.now.value
    }

    @Test(
        "without a socket the wait only sleeps; connected and quiet it waits out the timeout; a message makes it readable",
        .enabled(if: MosquittoHarness.toolsPresent, "\(MosquittoHarness.missingMessage)"), .timeLimit(.minutes(1)))
    func readinessFollowsTheSocket() throws {
        let harness = try MosquittoHarness()
        defer { harness.shutDown() }
        var received: [String] = []
        let client = try MQTTClient(configuration: MQTTClientTests.configuration(harness, id: "hub-wait"))
        client.setHandlers(MQTTClient.Handlers(received: { topic, payload, _ in
            received.append("\(topic) \(String(decoding: payload, as: UTF8.self))")
        }))
        defer { client.stop() }

        #expect(client.descriptor == nil)
        var ready = MQTTClient.Readiness(readable: true, writable: true)
        let slept = Self.milliseconds { ready = client.waitForReadiness(timeoutMs: 150) }
        #expect(ready == MQTTClient.Readiness(readable: false, writable: false))
        #expect(slept >= 140, "\(slept) ms")

        client.start(nowMs: MQTTPump.nowMs())
        #expect(MQTTPump.run(client, seconds: 5) { client.state == .connected }, "\(client.lastError as Any)")
        try client.subscribe("fairfuel/+/trip")
        // The SUBACK, then nothing more: the socket has nothing to read and nothing waits to be written.
        #expect(MQTTPump.run(client, seconds: 1) { false } == false)
        #expect(!client.wantsWrite)
        let quiet = Self.milliseconds { ready = client.waitForReadiness(timeoutMs: 200) }
        #expect(ready == MQTTClient.Readiness(readable: false, writable: false))
        #expect(quiet >= 190, "\(quiet) ms")

        _ = try client.publish(topic: "fairfuel/car-a/trip", payload: Array("{\"id\":1}".utf8), retained: false)
        var sawReadable = false
        let deadline = MQTTPump.nowMs() + 5_000
        while received.isEmpty && MQTTPump.nowMs() < deadline {
            ready = client.waitForReadiness(timeoutMs: 250)
            sawReadable = sawReadable || ready.readable
            client.service(readable: ready.readable, writable: ready.writable, nowMs: MQTTPump.nowMs())
        }
        #expect(sawReadable)
        #expect(received == ["fairfuel/car-a/trip {\"id\":1}"])
    }
}
