import FairFuelLink

/// How the demo went, for its closing lines.
public struct DemoReport: Sendable {
    public var storePath: String
    public var simulatedMs: Int64
    public var realMs: Int64
    public var sessionsStarted: Int
    public var sessionsEnded: Int
    public var refuelsEntered: Int
    public var framesSent: Int
    /// What the service's receiver counted (frames delivered, errors, lost).
    public var link: LinkCounters
    public var mcuReboots: Int
}
