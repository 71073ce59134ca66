import FairFuelEdges
import Foundation
import Testing
import TestSupport

/// The ACL of docs/mqtt.md for commands: the hub may publish a car's command, a car may not
/// publish another car's, and each car reads its own commands.
@Suite(.tags(.integration)) struct MQTTCommandACLTests {
    @Test(.enabled(if: MosquittoHarness.toolsPresent, "\(MosquittoHarness.missingMessage)"), .timeLimit(.minutes(1)))
    func onlyTheHubPublishesAnotherCarsCommands() throws {
        let harness = try MosquittoHarness(
            users: [("fairfuel-hub", "hub pass"), ("car-a", "car a pass"), ("car-b", "car b pass")], acl: try MQTTClientTests.documentedACL())
        defer { harness.shutDown() }
        let carB = try harness.subscribe(topic: "fairfuel/car-b/command", count: 2, seconds: 3, user: ("car-b", "car b pass"))
        func publisher(_ user: String, _ password: String) throws -> (MQTTClient, MQTTRecorder) {
            let recorder = MQTTRecorder()
            let client = try MQTTClient(
                configuration: MQTTClientTests.configuration(
                    harness, version: .v5, id: "\(user)-sender", credentials: MQTTCredentials(username: user, password: password)),
                handlers: recorder.handlers)
            client.start(nowMs: MQTTPump.nowMs())
            #expect(MQTTPump.run(client, seconds: 5) { client.state == .connected }, "\(client.lastError as Any)")
            return (client, recorder)
        }
        let (hub, hubRecorder) = try publisher("fairfuel-hub", "hub pass")
        let fromHub = try hub.publish(topic: "fairfuel/car-b/command", payload: Array("from the hub".utf8), retained: false)
        #expect(MQTTPump.run(hub, seconds: 5) { hubRecorder.acknowledged.count == 1 })
        #expect(hubRecorder.events.contains(.acknowledged(messageID: fromHub, reasonCode: 0)), "\(hubRecorder.events)")
        let (carA, carARecorder) = try publisher("car-a", "car a pass")
        let forged = try carA.publish(topic: "fairfuel/car-b/command", payload: Array("from car a".utf8), retained: false)
        #expect(MQTTPump.run(carA, seconds: 5) { carARecorder.acknowledged.count == 1 })
        #expect(carARecorder.events.contains(.acknowledged(messageID: forged, reasonCode: 0x87)), "\(carARecorder.events)")
        // mosquitto_sub ends after its -W seconds with "Timed out": only the hub's command came.
        let lines = harness.lines(of: carB, seconds: 5).filter { $0.hasPrefix("fairfuel/") }
        #expect(lines == ["fairfuel/car-b/command from the hub"], "\(lines)")
        hub.stop()
        carA.stop()
    }
}
