import FairFuelLink

/// One line (with its continuation lines) of the timeline.
public struct SimTimelineEntry: Sendable {
    /// Simulated milliseconds since time zero.
    public var timeMs: Int64
    public var action: SimAction
    public var line: Int

    public init(timeMs: Int64, action: SimAction, line: Int) {
        self.timeMs = timeMs
        self.action = action
        self.line = line
    }
}

/// What a timeline line does.
public enum SimAction: Sendable {
    case trip(SimTrip)
    /// A driver taps their tag.
    case tapDriver(String)
    /// Some other tag is tapped (a bank card, an unknown fob).
    case tapTag(SimTagKind, uid: [UInt8]?)
    /// A blank tag is presented: an NFC_WRITE waiting for a tag writes it.
    case presentBlank(SimTagKind, uid: [UInt8]?, readOnly: Bool)
    case ignition(Bool)
    case reboot
    case unplug(durationMs: Int64)
    case noise(LineNoiseSettings)
    case garbageBurst(bytes: Int)
    /// Strangers nearby for a while.
    case strangers(kind: SimStrangerKind, count: Int, durationMs: Int64, rangeMeters: Double)
    /// A driver stands near the car without driving.
    case near(driver: String, durationMs: Int64, rangeMeters: Double)
    /// The MCU sends a LOG frame.
    case log(MCULog.Level, String)
    case end
}
