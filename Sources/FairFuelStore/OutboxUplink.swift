/// What the uplink publishes, set on the writer (`TripStore.uplink`) by whoever writes records
/// (the service, the CLI) when the board profile has an `[uplink]` table; nil: nothing is queued.
public struct OutboxUplink: Sendable, Equatable {
    /// Topics are `<topicPrefix>/<vehicle uplink id>/<kind>`.
    public var topicPrefix: String
    public var budget: OutboxBudget
    public var positions: OutboxPositions

    public init(topicPrefix: String = "fairfuel", budget: OutboxBudget, positions: OutboxPositions = .none) {
        self.topicPrefix = topicPrefix
        self.budget = budget
        self.positions = positions
    }
}

/// Which positions a trip message carries (docs/mqtt.md, privacy): none, the first and last kept
/// point, or every kept point.
public enum OutboxPositions: String, Sendable, Equatable, CaseIterable {
    case none
    case summary
    case track
}

/// The record topics under `<prefix>/<vehicle>/`.
public enum OutboxRecordTopic: String, Sendable, Equatable, CaseIterable {
    case trip
    case refuel
    case split
}
