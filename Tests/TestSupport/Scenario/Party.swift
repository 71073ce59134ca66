import FairFuelCore

/// Who pays for fuel: a driver, or nobody tapped in (untracked).
public enum Party: Hashable, Sendable, Comparable, CustomStringConvertible {
    case driver(Person)
    case untracked

    public var description: String {
        switch self {
        case let .driver(person): person.description
        case .untracked: "untracked"
        }
    }

    public static func < (a: Party, b: Party) -> Bool { a.order < b.order }
    private var order: Int {
        switch self {
        case let .driver(person): person.rawValue
        case .untracked: Int.max
        }
    }
}

extension Party {
    /// The id a fresh store gives this party's driver (nil: untracked).
    public var driverID: DriverID? {
        if case let .driver(person) = self { return ScenarioFamily.driverID(person) }
        return nil
    }

    public init(_ driver: DriverID?) {
        if let person = ScenarioFamily.person(driver) { self = .driver(person) } else { self = .untracked }
    }
}
