/// What a run did.
public struct VirtualMCUReport: Sendable {
    public enum Reason: Sendable, Equatable {
        case scenarioEnd
        case limit
        case stopped
    }

    public var reason: Reason
    public var simulatedMs: Int64
    public var statistics: VirtualMCUStatistics
    public var feedback: [FeedbackRecord]

    public init(reason: Reason, simulatedMs: Int64, statistics: VirtualMCUStatistics, feedback: [FeedbackRecord]) {
        self.reason = reason
        self.simulatedMs = simulatedMs
        self.statistics = statistics
        self.feedback = feedback
    }
}
