/// Where the car is, for who else the scanner hears.
public enum Surroundings: Sendable, Equatable {
    case home, street, carPark, station
    case driving(Route.Surroundings)

    /// Strangers arriving per minute.
    var arrivalsPerMinute: Double {
        switch self {
        case .home: 0.3
        case .street: 2
        case .carPark: 2.5
        case .station: 3
        case .driving(.urban): 4
        case .driving(.suburban): 1.5
        case .driving(.motorway): 1
        }
    }

    var isDriving: Bool {
        if case .driving = self { return true }
        return false
    }
}
