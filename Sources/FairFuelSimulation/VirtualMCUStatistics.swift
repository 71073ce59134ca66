import FairFuelLink

/// Counters of the virtual MCU's link, for tests and the end-of-run summary.
public struct VirtualMCUStatistics: Sendable, Equatable {
    /// Frames handed to the line (before noise).
    public var framesSent = 0
    public var bytesSent = 0
    /// Frames that line noise hit (at least one flipped bit).
    public var framesCorrupted = 0
    public var bytesCorrupted = 0
    public var garbageBursts = 0
    public var garbageBytes = 0
    /// Frames the MCU dropped because its transmit buffer was full (the host not reading).
    public var framesDropped = 0
    public var framesByType: [UInt8: Int] = [:]
    public var acksSent = 0
    public var duplicatesReacked = 0
    /// What the MCU's own receiver counted on the host-to-MCU stream.
    public var hostCounters = LinkCounters()
    public var resets = 0
    /// Taps made again by a driver who heard no beep within 3 s.
    public var retaps = 0

    public init() {}
}
