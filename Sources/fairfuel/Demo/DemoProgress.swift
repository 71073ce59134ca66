/// A progress line's facts: where the simulation is and how many trips are done.
public struct DemoProgress: Sendable {
    public var simulatedMs: Int64
    public var localTime: String
    public var sessionsStarted: Int
    public var sessionsEnded: Int
}
