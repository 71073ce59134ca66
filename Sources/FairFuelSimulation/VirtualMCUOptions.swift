/// How the virtual MCU runs: speed, the stable device path, and hooks.
public struct VirtualMCUOptions: Sendable {
    /// Simulated milliseconds per real millisecond (600: ten simulated minutes a second).
    public var speed = 1.0
    /// A higher speed while nothing is going on (ignition and GNSS off, nothing scripted in
    /// the next 30 simulated seconds); nil: always `speed`. Heartbeats still come every
    /// simulated second, only faster.
    public var idleSpeed: Double?
    /// A symbolic link to the current pseudo-terminal, re-pointed after an unplug; nil: none.
    public var linkPath: String?
    /// Start simulated time only once the host has opened the device (so that it sees the HELLO).
    public var waitForHost = true
    /// The MCU's transmit buffer: frames beyond it are dropped (and counted in mcu_dropped)
    /// while the host does not read.
    public var transmitBufferBytes = 16 * 1024
    /// Never drop a frame: simulated time waits while the host has not read half of the
    /// transmit buffer, and advances at most `losslessStepMs` per turn (a demo, a test of
    /// results rather than of overload); false: a real MCU's buffer that overflows.
    public var lossless = false
    /// Simulated milliseconds made at most per turn of the loop when `lossless`.
    public var losslessStepMs: Int64 = 10_000
    /// Called on the run thread for every event.
    public var onEvent: (@Sendable (SimEvent) -> Void)?
    /// Polled by the run loop (at least every 50 ms); true stops it, as `stop()` does.
    public var interruption: (@Sendable () -> Bool)?

    public init(speed: Double = 1, idleSpeed: Double? = nil, linkPath: String? = nil) {
        self.speed = speed
        self.idleSpeed = idleSpeed
        self.linkPath = linkPath
    }
}
