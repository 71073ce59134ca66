import ArgumentParser
import FairFuelCore
import FairFuelDomain
import FairFuelEdges
import FairFuelPull

/// `fairfuel hub command`: signs a correction with the car's pairing secret, publishes it on
/// `<prefix>/<vehicle>/command` (QoS 1) and waits for the car's answer on `…/command/result`.
struct HubSendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "command",
        abstract: "Send a car a correction (signed with its pairing secret) and wait for its answer.",
        discussion: """
            COMMAND is one of:
              refuel add --at ISO8601 --liters L --cost 54.32 [--partial] [--odometer-km KM] [--station S] [--note N]
              refuel edit ID [--at ISO8601] [--liters L] [--cost C] [--full|--partial] [--odometer-km KM]
              refuel remove ID
              trip assign TRIP[,TRIP...] DRIVER        (trips as `fairfuel trips` names them: 42, u7)
              trip move TRIP DRIVER                    (a recorded trip given to another driver)
              trip delete TRIP
              baseline mark [--at ISO8601]             (the tank was full then; default: now)
              settle ID...   |   unsettle ID...
              resend --since MESSAGE_ID                (0: every record the car holds)
            and may end with --force (a settled bill's split may move; it is kept as it was).
            The broker keeps the command for a car that is away (its persistent session); until the
            car answers, the command is pending: this prints so after --timeout and exits 1.
            """)

    @OptionGroup var connection: HubConnectionOptions
    @Option(help: "The car's vehicle id (its topic level: `fairfuel status --json`, uplink.topic).")
    var vehicle: String
    @Option(name: .customLong("secret-file"), help: "A file holding the car's pairing secret.")
    var secretFile: String
    @Option(help: "Seconds to wait for the car's answer.")
    var timeout: Double = 30
    @Option(help: "The command's id (default: random); sending the same id again is answered already_applied.")
    var id: String?
    @Option(help: "A hub's directory: the command is listed there as pending until the car answers (`fairfuel hub status`).")
    var dir: String?
    @Argument(parsing: .captureForPassthrough, help: "The command (see above).")
    var words: [String] = []

    func validate() throws {
        guard FleetCommand.isValidID(vehicle) else { throw ValidationError("--vehicle \(vehicle): a vehicle id is letters and digits") }
        guard timeout > 0, timeout <= 3_600 else { throw ValidationError("--timeout must be 0 < SECONDS <= 3600") }
        if let id, !FleetCommand.isValidID(id) { throw ValidationError("--id: 1 to \(FleetCommand.maximumIDLength) of A-Z a-z 0-9 . _ -") }
    }

    func run() throws {
        let secret = try PullCommand.loadSecret(secret: nil, secretFile: secretFile)
        do { try HMACSHA256.load() } catch { throw UserFacingError("hub command: \(error)") }
        var words = words
        let force = words.last == "--force"
        if force { words.removeLast() }
        let operation: FleetCommand.Operation
        do throws(HubCommandWords.Problem) { operation = try HubCommandWords.operation(words) } catch {
            throw ValidationError(error.message)
        }
        let command = FleetCommand(
            id: id ?? Hex.string(PullNonce.random(count: 16)), issuedUTCMs: WallClock.utcMilliseconds(), force: force, operation: operation)
        let topic = "\(connection.prefix)/\(vehicle)/command"
        let envelope = Array(command.signedEnvelope(key: secret.bytes, mac: HMACSHA256.mac).utf8)
        let configuration = try connection.clientConfiguration(clientID: "fairfuel-hub-send-\(command.id.prefix(16))", cleanSession: true)
        let client: MQTTClient
        let log: HubCommandLog?
        do {
            client = try MQTTClient(configuration: configuration)
            log = try dir.map { directory throws in try HubCommandLog(directory: directory) }
        } catch {
            throw UserFacingError("hub command: \(error)")
        }
        var answer: JSONValue?
        var published = false
        var failure: String?
        client.setHandlers(MQTTClient.Handlers(
            connected: {
                do {
                    try client.subscribe(topic + "/result")
                    if !published {
                        try log?.sent(vehicle: vehicle, id: command.id, name: operation.name, atUTCMs: command.issuedUTCMs)
                        _ = try client.publish(topic: topic, payload: envelope, retained: false)
                    }
                    published = true
                } catch {
                    failure = "\(error)"
                }
            },
            acknowledged: { _, reason in if reason >= 0x80 { failure = "the broker refused the command (reason code \(reason)): check its ACL" } },
            received: { resultTopic, payload, _ in
                guard let json = JSONValue(String(decoding: payload, as: UTF8.self)), json["id"]?.string == command.id else { return }
                answer = json
                do { try log?.answer(topic: resultTopic, payload: payload, atUTCMs: WallClock.utcMilliseconds()) } catch { failure = "\(error)" }
            }))
        let clock = MonotonicClock()
        let deadline = clock.now.value + Int64(timeout * 1_000)
        client.start(nowMs: clock.now.value)
        while answer == nil, failure == nil, clock.now.value < deadline {
            let now = clock.now.value
            let wait = min(max(0, (client.nextServiceMs(nowMs: now) ?? now + 250) - now), deadline - now, 250)
            let ready = client.waitForReadiness(timeoutMs: Int32(clamping: wait))
            client.service(readable: ready.readable, writable: ready.writable, nowMs: clock.now.value)
        }
        client.stop()
        if let failure { throw UserFacingError("hub command \(command.id): \(failure)") }
        guard let answer else {
            throw UserFacingError(published
                ? "command \(command.id) (\(operation.name)) is pending: no answer from the car within \(Int(timeout)) s; the broker keeps it for the car, which answers on \(topic)/result when it is back"
                : "command \(command.id) was not sent: never connected to \(connection.url) within \(Int(timeout)) s: \(client.lastError.map { "\($0)" } ?? "no answer")")
        }
        let outcome = answer["outcome"]?.string ?? "?"
        let reason = answer["reason"]?.string
        let line = "command \(command.id) (\(operation.name)): \(outcome)" + (reason.map { ": \($0)" } ?? "")
        guard outcome != "refused" else { throw UserFacingError(line) }
        print(line)
    }
}
