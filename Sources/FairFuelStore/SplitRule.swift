/// Which rule a bill was split by; kept with the bill, so a settled one still says how it was split.
public enum SplitRule: String, Sendable, CaseIterable {
    /// In proportion to each party's fuel since the refuel before it.
    case ordinary
    /// The first full fill-up after install, or a fill before it: each party pays their estimated
    /// fuel at the bill's price per litre, the rest was burnt before tracking began.
    case firstFill = "first_fill"
    /// A baseline mark: the tank was full then (no bill); the next bill is an ordinary one.
    case baseline
    /// The rule before estimates were charged: the whole first bill before tracking (settled bills of older stores).
    case allBeforeTracking = "all_before_tracking"

    /// Its name in a list of rules.
    public var label: String {
        switch self {
        case .ordinary: "ordinary"
        case .firstFill: "first fill-up"
        case .baseline: "baseline mark"
        case .allBeforeTracking: "first fill-up (older rule)"
        }
    }

    /// A few words for a family reading the split.
    public var explanation: String {
        switch self {
        case .ordinary: "split by the fuel each drove since the refuel before"
        case .firstFill: "first fill-up: each pays their estimated fuel since tracking began, the rest was before tracking"
        case .baseline: "baseline mark: the tank was full here, tracking starts"
        case .allBeforeTracking: "first fill-up, settled under the older rule: all before tracking"
        }
    }
}
