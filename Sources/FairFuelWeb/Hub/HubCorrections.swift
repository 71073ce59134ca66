import FairFuelCore
import FairFuelDomain
import FairFuelPull
import FairFuelStore
import NIOPosix

/// Corrections from the hub's web app down to a car (`fairfuel web --hub-db FILE --mqtt-url URL
/// --secrets DIR`): a form's fields read by `HubCommandWords` (the CLI's parser), signed with the
/// car's pairing secret (`DIR/<vehicle-id>.secret`) and published by `HubCommandSender`, the
/// sender `fairfuel hub command` uses; listed as pending in the hub's database until the
/// collecting hub (`fairfuel hub --db FILE`) records the car's answer there.
public struct HubCorrections: Sendable {
    /// How long a page waits for the broker to take a command.
    static let publishTimeoutSeconds = 10.0

    public let broker: HubBroker
    public let secrets: HubCommandSecrets

    /// Checks that the secrets directory is one; the broker is tried when a command is sent.
    public init(broker: HubBroker, secretsDirectory: String) throws(WebError) {
        guard let secrets = HubCommandSecrets(directory: secretsDirectory) else {
            throw .unavailable("--secrets \(secretsDirectory): no such directory (it holds one file per car, <vehicle-id>.secret)")
        }
        self.broker = broker
        self.secrets = secrets
    }

    /// The car's pairing secret, or a clear refusal.
    func secret(for vehicle: String) throws(WebError) -> PairingSecret {
        do { return try secrets.secret(for: vehicle) } catch {
            switch error {
            case .noSecret: throw .refused(error.description)
            case .unreadable: throw .unavailable(error.description)
            }
        }
    }

    /// Signs and publishes `action` with `fields` to `vehicle`, listed pending in `database`; returns the command.
    /// `id`: the form's own command id, so that a form sent twice (a reload) is answered already_applied; nil: a new one.
    func send(vehicle: String, action: String, fields: [String: String], id: String?, database: String, open: @escaping HubFamily.Opener) async throws(WebError) -> FleetCommand {
        // A car the hub cannot sign for is refused first, whatever the form says.
        let secret = try secret(for: vehicle)
        // A cost is read in the car's currency, as its bills at the hub have it.
        let carCurrency: String?
        do {
            guard let store = try open(database) else { throw WebError.unavailable("the hub database is gone") }
            carCurrency = try HubCarCurrency.of(vehicle: vehicle, database: store)
        } catch let error as WebError {
            throw error
        } catch {
            throw .unavailable("cannot read the car's bills in the hub's database: \(error)")
        }
        let (operation, force): (FleetCommand.Operation, Bool)
        do throws(HubCommandWords.Problem) {
            (operation, force) = try HubCommandWords.operation(action: action, fields: fields, carCurrency: carCurrency)
        } catch {
            throw .badRequest(error.message)
        }
        if let id, !FleetCommand.isValidID(id) { throw .badRequest("command_id: 1 to \(FleetCommand.maximumIDLength) of A-Z a-z 0-9 . _ -") }
        let broker = broker
        let outcome: Result<FleetCommand, WebError>
        do {
            outcome = try await NIOThreadPool.singleton.runIfActive {
                do {
                    guard let store = try open(database) else { return .failure(.unavailable("the hub database is gone")) }
                    let log = HubDatabaseCommandLog(store)
                    let sent = try HubCommandSender(broker: broker).send(
                        operation, force: force, id: id, vehicle: vehicle, secret: secret, keeping: log, timeoutSeconds: Self.publishTimeoutSeconds,
                        waitForAnswer: false)
                    return .success(sent.command)
                } catch let failure as HubCommandSender.Failure {
                    return .failure(.unavailable(failure.description))
                } catch {
                    return .failure(.unavailable("cannot list the command in the hub's database: \(error)"))
                }
            }
        } catch {
            throw .unavailable("the app is shutting down")
        }
        return try outcome.get()
    }

    /// The commands sent to `vehicle` (nil: every car), newest first, as the hub's database has them.
    static func commands(vehicle: String?, database: any HubRecordStoring) throws(WebError) -> [HubCommandEntry] {
        do { return try database.commands(vehicle: vehicle).reversed() } catch {
            throw .unavailable("cannot read the hub's commands: \(error)")
        }
    }
}
