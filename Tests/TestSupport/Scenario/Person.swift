/// The family members who drive the scenario car.
public enum Person: Int, Sendable, CaseIterable, CustomStringConvertible {
    case ana, ben, cleo

    public var description: String { ScenarioFamily.names[rawValue] }
}
