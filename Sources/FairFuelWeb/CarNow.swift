import FairFuelReports

/// What the home page says about the car now: the fuel in its tank (the store's estimate, as the
/// service reports it) and whether it is being driven and by whom (the running service's status),
/// each "not known" when nothing can say.
struct CarNow: Sendable, Equatable {
    enum Driving: Sendable, Equatable {
        case parked
        /// `driver`: nil while the car does not know who drives; `kilometers` so far, when known.
        case driven(driver: String?, kilometers: Double?)
        /// No service answers (not running, or this is not the car), or its status cannot be read.
        case notKnown

        /// Who drives now, when the car knows.
        var driverName: String? {
            if case let .driven(driver, _) = self { return driver }
            return nil
        }
    }

    /// Litres in the tank, nil before the first full-tank refuel; and the tank's size.
    var tankLiters: Double?
    var tankCapacityLiters: Double
    var driving: Driving

    /// From the service's answer to `status` (its session state, driver and distance).
    init(tankLiters: Double?, tankCapacityLiters: Double, status: ServiceAnswer) {
        self.tankLiters = tankLiters
        self.tankCapacityLiters = tankCapacityLiters
        driving = Self.driving(status)
    }

    static func driving(_ status: ServiceAnswer) -> Driving {
        guard case let .answered(json) = status, let fields = StatusText.fields(json) else { return .notKnown }
        func scalar(_ name: String) -> String? {
            guard case let .scalar(text)? = fields.first(where: { $0.0 == name })?.1, text != "-" else { return nil }
            return text
        }
        switch scalar("session_state") {
        case "IDLE"?, "ENDED"?: return .parked
        case "STARTING"?, "ACTIVE"?, "STOPPING"?, "SWITCHING"?:
            return .driven(driver: scalar("driver"), kilometers: scalar("session_km").flatMap(Double.init))
        default: return .notKnown
        }
    }
}
