/// When `run` returns.
public enum VirtualMCURunLimit: Sendable, Equatable {
    /// At the scenario's end (its `end` line, or a minute after its last event).
    case scenarioEnd
    /// At this simulated time (milliseconds since the scenario's start); beyond the end the
    /// MCU goes on heartbeating like a parked car's.
    case simulatedMs(Int64)
}
