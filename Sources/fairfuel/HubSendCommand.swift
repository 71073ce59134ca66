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
              refuel add --at ISO8601 --liters L --cost 54.32 [--currency EUR] [--partial] [--odometer-km KM] [--station S] [--note N]
              refuel edit ID [--at ISO8601] [--liters L] [--cost C] [--currency EUR] [--full|--partial] [--odometer-km KM]
              refuel remove ID
              trip assign TRIP[,TRIP...] DRIVER        (trips as `fairfuel trips` names them: 42, u7)
              trip move TRIP DRIVER                    (a recorded trip given to another driver)
              trip delete TRIP
              baseline mark [--at ISO8601]             (the tank was full then; default: now)
              settle ID...   |   unsettle ID...
              resend --since MESSAGE_ID                (0: every record the car holds)
            and may end with --force (a settled bill's split may move; it is kept as it was).
            A cost is in the car's currency, which the hub knows from the car's bills (--db, --dir);
            without them say --currency; the car refuses a cost in another currency than its own.
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
    @Option(help: "A hub's directory: the command is listed in its database (or, for a hub kept in car directories, its file) as pending until the car answers (`fairfuel hub status`).")
    var dir: String?
    @Option(help: "A hub's database (SQLite file or postgres:// URL, as `fairfuel hub --db`): the command is listed there as pending until the car answers.")
    var db: String?
    @Argument(parsing: .captureForPassthrough, help: "The command (see above).")
    var words: [String] = []

    func validate() throws {
        guard FleetCommand.isValidID(vehicle) else { throw ValidationError("--vehicle \(vehicle): a vehicle id is letters and digits") }
        guard timeout > 0, timeout <= 3_600 else { throw ValidationError("--timeout must be 0 < SECONDS <= 3600") }
        if let id, !FleetCommand.isValidID(id) { throw ValidationError("--id: 1 to \(FleetCommand.maximumIDLength) of A-Z a-z 0-9 . _ -") }
        if dir != nil && db != nil { throw ValidationError("--dir and --db are exclusive: a hub keeps its commands in one of them") }
    }

    func run() throws {
        let secret = try PullCommand.loadSecret(secret: nil, secretFile: secretFile)
        var words = words
        let force = words.last == "--force"
        if force { words.removeLast() }
        let keeping: (any HubCommandKeeping)?
        // A cost is read in the car's currency, as the hub's records of its bills have it.
        let carCurrency: String?
        do {
            // A hub's directory with its database (as `fairfuel hub` keeps one by default) lists the command there.
            if let db = db ?? dir.flatMap(HubDirectoryDatabase.existing(in:)) {
                let database = try HubDatabases.open(db)
                keeping = HubDatabaseCommandLog(database)
                carCurrency = try HubCarCurrency.of(vehicle: vehicle, database: database)
            } else {
                keeping = try dir.map { directory throws in try HubCommandLog(directory: directory) }
                carCurrency = try dir.flatMap { directory throws in try HubCarCurrency.of(vehicle: vehicle, directory: directory) }
            }
        } catch {
            throw UserFacingError("hub command: \(error)")
        }
        let operation: FleetCommand.Operation
        do throws(HubCommandWords.Problem) { operation = try HubCommandWords.operation(words, carCurrency: carCurrency) } catch {
            throw ValidationError(error.message)
        }
        let sent: HubCommandSender.Sent
        do {
            sent = try HubCommandSender(broker: connection.broker).send(
                operation, force: force, id: id, vehicle: vehicle, secret: secret, keeping: keeping, timeoutSeconds: timeout, waitForAnswer: true)
        } catch {
            throw UserFacingError("hub \(error.description)")
        }
        let topic = "\(connection.prefix)/\(vehicle)/command"
        guard let answer = sent.answer else {
            throw UserFacingError(
                "command \(sent.command.id) (\(operation.name)) is pending: no answer from the car within \(Int(timeout)) s; the broker keeps it for the car, which answers on \(topic)/result when it is back")
        }
        let line = "command \(sent.command.id) (\(operation.name)): \(answer.outcome)" + (answer.reason.map { ": \($0)" } ?? "")
        guard answer.outcome != "refused" else { throw UserFacingError(line) }
        print(line)
    }
}
