/// What a GET asks for; each kind's record lines are described in docs/usb-pull-protocol.md.
public enum PullRecordKind: UInt8, Sendable, CaseIterable {
    /// One line: the vehicle profile (name, currency, minor digits, units, fuel type).
    case vehicle = 1
    /// Provisioned drivers, cursor = last driver id sent.
    case drivers = 2
    /// Closed trips, oldest id first, cursor = last trip id sent; `since` filters on the start.
    case trips = 3
    /// The track of trip `trip`, cursor = index of the next point.
    case track = 4
    /// Refuel shares, cursor = last refuel id sent.
    case splits = 5
    /// Per-driver totals over the closed trips since `since` and every refuel.
    case summary = 6

    public var name: String {
        switch self {
        case .vehicle: "vehicle"
        case .drivers: "drivers"
        case .trips: "trips"
        case .track: "track"
        case .splits: "splits"
        case .summary: "summary"
        }
    }
}
