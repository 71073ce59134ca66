import FairFuelCore
import FairFuelDomain
import FairFuelEdges
import FairFuelStore

/// Sends a car a correction: signs it with the car's pairing secret, lists it as pending where the
/// hub keeps its commands, publishes it on `<prefix>/<vehicle>/command` (QoS 1) and waits for the
/// broker to take it (and, when asked, for the car's answer on `…/command/result`). One sender for
/// `fairfuel hub command` and the hub's web app. A command the broker did not take is not listed
/// as sent. Blocking: the caller gives it a thread.
public final class HubCommandSender {
    /// Why a command was not sent (or not answered as hoped); `published`: the broker took it.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
        public var published: Bool
    }

    /// A command the broker took, and the car's answer when one came in time (nil: pending).
    public struct Sent: Sendable {
        public var command: FleetCommand
        public var answer: HubCommandResult?
    }

    /// Commands a car may have waiting for its answer: past this, a car long away gets no more until it answers.
    public static let maximumPendingPerVehicle = 100

    /// Failed connection attempts in a row after which a command is not sent, before its timeout.
    static let attemptsBeforeGivingUp = 3

    public let broker: HubBroker

    public init(broker: HubBroker) {
        self.broker = broker
    }

    public func send(
        _ operation: FleetCommand.Operation, force: Bool = false, id: String? = nil, vehicle: String, secret: PairingSecret,
        keeping: (any HubCommandKeeping)?, timeoutSeconds: Double, waitForAnswer: Bool
    ) throws(Failure) -> Sent {
        func notSent(_ why: String) -> Failure { Failure(description: why, published: false) }
        guard FleetCommand.isValidID(vehicle) else { throw notSent("\(vehicle) is not a vehicle id (letters and digits)") }
        do { try HMACSHA256.load() } catch { throw notSent("cannot sign the command: \(error)") }
        let command = FleetCommand(
            id: id ?? Hex.string(PullNonce.random(count: 16)), issuedUTCMs: WallClock.utcMilliseconds(), force: force, operation: operation)
        let topic = "\(broker.prefix)/\(vehicle)/command"
        let envelope = Array(command.signedEnvelope(key: secret.bytes, mac: HMACSHA256.mac).utf8)
        let client: MQTTClient
        do {
            if let keeping, try keeping.pendingCount(vehicle: vehicle) >= Self.maximumPendingPerVehicle {
                throw notSent("car \(vehicle) has \(Self.maximumPendingPerVehicle) commands waiting for its answer: send more when it has answered")
            }
            client = try MQTTClient(configuration: try broker.clientConfiguration(clientID: "fairfuel-hub-send-\(command.id.prefix(16))", cleanSession: true))
        } catch let failure as Failure {
            throw failure
        } catch {
            throw notSent("\(error)")
        }
        var messageID: Int32?
        var taken = false
        var answer: HubCommandResult?
        var failure: String?
        client.setHandlers(MQTTClient.Handlers(
            connected: {
                guard messageID == nil else { return }
                do {
                    if waitForAnswer { try client.subscribe(topic + "/result") }
                    // Listed before it is published: the car's answer can then never arrive before the command is known.
                    try keeping?.sent(vehicle: vehicle, id: command.id, name: operation.name, atUTCMs: command.issuedUTCMs)
                    messageID = try client.publish(topic: topic, payload: envelope, retained: false)
                } catch {
                    failure = "\(error)"
                }
            },
            acknowledged: { acknowledgedID, reason in
                guard acknowledgedID == messageID else { return }
                if reason >= 0x80 { failure = "the broker refused the command (reason code \(reason)): check its ACL" } else { taken = true }
            },
            received: { resultTopic, payload, _ in
                guard let result = HubCommandResult(topic: resultTopic, payload: payload), result.vehicle == vehicle, result.id == command.id else { return }
                answer = result
                do { try keeping?.answer(result, atUTCMs: WallClock.utcMilliseconds()) } catch { failure = "\(error)" }
            }))
        let clock = MonotonicClock()
        let deadline = clock.now.value + Int64(timeoutSeconds * 1_000)
        client.start(nowMs: clock.now.value)
        // A broker that refused three attempts in a row (down, wrong credentials) is an answer: no need to wait out the timeout.
        while failure == nil, clock.now.value < deadline, !(taken && (answer != nil || !waitForAnswer)),
              !(messageID == nil && client.failures >= Self.attemptsBeforeGivingUp)
        {
            let now = clock.now.value
            let wait = min(max(0, (client.nextServiceMs(nowMs: now) ?? now + 250) - now), deadline - now, 250)
            let ready = client.waitForReadiness(timeoutMs: Int32(clamping: wait))
            client.service(readable: ready.readable, writable: ready.writable, nowMs: clock.now.value)
        }
        client.stop()
        guard taken else {
            try? keeping?.withdrawn(vehicle: vehicle, id: command.id)
            let why = failure
                ?? (messageID == nil
                    ? "could not connect to \(broker.url): \(client.lastError.map { "\($0)" } ?? "no answer within \(Int(timeoutSeconds)) s")"
                    : "the broker at \(broker.url) did not confirm it within \(Int(timeoutSeconds)) s")
            throw notSent("command \(command.id) was not sent: \(why)")
        }
        if let failure { throw Failure(description: "command \(command.id): \(failure)", published: true) }
        return Sent(command: command, answer: answer)
    }
}
