import FairFuelCore
import FairFuelDomain
import FairFuelEdges
import FairFuelServiceCore
import FairFuelStore

/// Commands down from the hub, in the uplink's connection: each message on
/// `<prefix>/<vehicle>/command` goes through the `CommandDesk` (authenticated with the pairing
/// secret, read), then the store (`applyFleetCommand`: one transaction, a duplicate id changes
/// nothing), and the answer goes back on `…/command/result`.
final class FleetCommandReceiver {
    let commandTopic: String
    let resultTopic: String
    private let store: TripStore
    private let logger: Logger
    private var desk: CommandDesk
    /// The refusal log's rate limit runs on this clock.
    private let clock = MonotonicClock()
    /// Commands applied, refused and answered as duplicates since the service started.
    private(set) var applied = 0
    private(set) var refused = 0
    private(set) var duplicates = 0

    init(topicPrefix: String, vehicleID: String, store: TripStore, logger: Logger) {
        commandTopic = "\(topicPrefix)/\(vehicleID)/command"
        resultTopic = commandTopic + "/result"
        self.store = store
        self.logger = logger
        desk = CommandDesk { key, message, mac in
            // libcrypto is loaded on first use; without it no command can be checked, so none is applied.
            guard (try? HMACSHA256.load()) != nil else { return false }
            return HMACSHA256.constantTimeEqual(HMACSHA256.mac(key: key, message: message), mac)
        }
    }

    /// Decides and applies one message; returns the result to publish and whether the store changed.
    /// `utcMs`: the wall clock, which stamps an applied id for its retention and is what a refuel's date is checked against (the store's typing checks).
    func receive(_ payload: [UInt8], utcMs: Int64) -> (result: [UInt8], changed: Bool) {
        let secret: String?
        do { secret = try store.pairingSecretHex() } catch {
            logger.warning("fleet command: cannot read the pairing secret: \(error)")
            refused += 1
            return (CommandDesk.result(id: nil, outcome: .refused, reason: "the car cannot read its store"), false)
        }
        let decision = desk.receive(payload, secretHex: secret, nowMs: clock.now.value)
        if let line = decision.logLine { logger.warning(line) }
        switch decision.verdict {
        case let .refuse(id, reason):
            refused += 1
            return (CommandDesk.result(id: id, outcome: .refused, reason: reason), false)
        case let .apply(command):
            do {
                switch try store.applyFleetCommand(command, receivedUTCMs: utcMs) {
                case let .applied(summary):
                    applied += 1
                    logger.notice("fleet command \(command.id) (\(command.operation.name)) applied: \(summary)")
                    return (CommandDesk.result(id: command.id, outcome: .applied, reason: summary), true)
                case .alreadyApplied:
                    duplicates += 1
                    return (CommandDesk.result(id: command.id, outcome: .alreadyApplied, reason: nil), false)
                }
            } catch {
                refused += 1
                logger.notice("fleet command \(command.id) (\(command.operation.name)) refused: \(error)")
                return (CommandDesk.result(id: command.id, outcome: .refused, reason: "\(error)"), false)
            }
        }
    }
}
