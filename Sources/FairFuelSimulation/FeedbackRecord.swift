import FairFuelLink

/// A FEEDBACK pattern the host asked for, as the dongle's buzzer and LED would show it.
public struct FeedbackRecord: Sendable, Equatable {
    public var simMs: Int64
    public var uptimeMs: UInt32
    public var seq: UInt16
    public var pattern: Feedback
}
