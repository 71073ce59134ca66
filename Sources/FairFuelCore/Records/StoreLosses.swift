/// What could not be kept, per kind; written to the store's `store_losses` table.
public enum StoreLossKind: String, Sendable, CaseIterable {
    case sessionStart = "session_start"
    case sessionEnd = "session_end"
    /// Driving with no driver (its distance and fuel, for the split).
    case untracked
    case tripPoint = "trip_point"
    /// An event-log line (an unknown tag, ...).
    case event

    /// "session start", "untracked record", ...: for log lines (a count and "(s)" follow).
    public var label: String {
        switch self {
        case .sessionStart: "session start"
        case .sessionEnd: "session end"
        case .untracked: "untracked record"
        case .tripPoint: "trip point"
        case .event: "event"
        }
    }
}

/// Counts of records lost, per `StoreLossKind`; fixed size, no allocation.
public struct StoreLosses: Sendable, Equatable, CustomStringConvertible {
    public var sessionStarts = 0
    public var sessionEnds = 0
    public var untracked = 0
    public var tripPoints = 0
    public var events = 0

    public init() {}

    public subscript(kind: StoreLossKind) -> Int {
        get {
            switch kind {
            case .sessionStart: sessionStarts
            case .sessionEnd: sessionEnds
            case .untracked: untracked
            case .tripPoint: tripPoints
            case .event: events
            }
        }
        set {
            switch kind {
            case .sessionStart: sessionStarts = newValue
            case .sessionEnd: sessionEnds = newValue
            case .untracked: untracked = newValue
            case .tripPoint: tripPoints = newValue
            case .event: events = newValue
            }
        }
    }

    public var isEmpty: Bool { StoreLossKind.allCases.allSatisfy { self[$0] == 0 } }

    /// Records that matter (sessions and untracked driving) lost: anything but points and events.
    public var recordsThatMatter: Int { sessionStarts + sessionEnds + untracked }

    public static func + (a: StoreLosses, b: StoreLosses) -> StoreLosses {
        var sum = a
        for kind in StoreLossKind.allCases { sum[kind] += b[kind] }
        return sum
    }

    /// "2 session end(s), 340 trip point(s)"; "nothing" when empty.
    public var description: String {
        let parts = StoreLossKind.allCases.filter { self[$0] != 0 }.map { "\(self[$0]) \($0.label)(s)" }
        return parts.isEmpty ? "nothing" : parts.joined(separator: ", ")
    }

    /// `{"session_start":0,...}`.
    public var jsonObject: String {
        "{" + StoreLossKind.allCases.map { "\"\($0.rawValue)\":\(self[$0])" }.joined(separator: ",") + "}"
    }
}
