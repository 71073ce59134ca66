import FairFuelDomain
import FairFuelStore

extension FamilyBooks {
    /// A car a hub asked to publish again what the hub missed (a `resend` command, the late hub's
    /// or one sent by hand, still pending in the hub's command log): until the car answers, the
    /// hub holds only part of its records, and every person's figures may lack some of them.
    public struct Waiting: Sendable, Equatable {
        /// The car's label among the books, or its vehicle id while none of its records arrived.
        public var car: String
        public var vehicle: String
        /// When the hub last asked (its clock).
        public var askedUTCMs: Int64

        public init(car: String, vehicle: String, askedUTCMs: Int64) {
            self.car = car
            self.vehicle = vehicle
            self.askedUTCMs = askedUTCMs
        }
    }

    /// Marks the cars with a `resend` pending among `commands` (a hub's command log) as waiting,
    /// each once with the latest time it was asked.
    public mutating func noteWaiting(commands: [HubCommandEntry]) {
        for command in commands where command.state == "pending" && command.name == Self.resendCommandName {
            if let index = waiting.firstIndex(where: { $0.vehicle == command.vehicle }) {
                waiting[index].askedUTCMs = max(waiting[index].askedUTCMs, command.sentUTCMs)
                continue
            }
            let id = command.vehicle.lowercased()
            let car = cars.first { $0.uplinkID == id || $0.vehicleID?.lowercased() == id }
            waiting.append(Waiting(car: car?.label ?? command.vehicle, vehicle: command.vehicle, askedUTCMs: command.sentUTCMs))
        }
    }

    /// The name a hub's command log gives a `resend`.
    static let resendCommandName = FleetCommand.Operation.resend(sinceMessageID: 0).name
}
