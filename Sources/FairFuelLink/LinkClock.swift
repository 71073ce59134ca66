import FairFuelCore

/// The live service's domain time, taken from the MCU's own clock: each frame's `t_ms`
/// (or HELLO / HEARTBEAT `uptime_ms`), unwrapped across the uint32 wrap (49.7 days) and
/// kept continuous and never decreasing across MCU reboots and out-of-order stamps.
///
/// Event time from the MCU makes the domain's timers (beacon absence, stand-still)
/// independent of how promptly the host got to read the link, and exact for a virtual
/// MCU that runs faster than real time. Between frames (a quiet or unplugged link) time
/// is extrapolated by the host's monotonic clock, the one place the host clock counts.
///
/// No I/O: the caller passes host monotonic milliseconds in. A replay passes a capture
/// line's time, the host's clock when the bytes were read.
public struct LinkClock: Sendable, Equatable {
    /// A backward step up to this many milliseconds is taken as frames of different types
    /// stamped slightly out of order (clamped), a HELLO included: the HELLO that answers our
    /// HELLO_REQ may be stamped just before a frame already queued. A HELLO further back is a
    /// reboot.
    public var reorderToleranceMs: Int64
    /// A larger backward step without a HELLO is a reboot whose HELLO was lost only if the
    /// stamp is this young (the MCU has just booted). An old stamp far behind is a frame held
    /// back in the MCU's queue (a virtual MCU at 5000x), and re-basing on it would add its
    /// whole uptime to domain time.
    public var justBootedMs: UInt32
    /// Extrapolation starts only after this much host time without a frame, so that on a
    /// healthy link (a HEARTBEAT a second) ticks never run ahead of the MCU's stamps.
    public var extrapolationGraceMs: Int64

    /// The MCU stamp of the last frame that moved time forward, and its domain time.
    private var referenceStamp: UInt32?
    private var referenceMs: Int64 = 0
    /// The latest domain time handed out (frames and extrapolations); nothing goes below it.
    private var floorMs: Int64 = 0
    /// Domain time at the last frame, and the host's clock then: the extrapolation base.
    private var lastFrameMs: Int64 = 0
    private var lastFrameHostMs: Int64

    /// MCU reboots seen: a HELLO well behind the last stamp, or a young stamp well behind it.
    public private(set) var reboots = 0
    /// Stamps that came slightly behind the previous one and were clamped.
    public private(set) var clamped = 0

    /// A clock that starts at domain time 0 at host time `hostMs`.
    public init(
        hostMs: LinkMilliseconds, reorderToleranceMs: Int64 = 5_000, justBootedMs: UInt32 = 30_000,
        extrapolationGraceMs: Int64 = 2_000
    ) {
        lastFrameHostMs = hostMs.value
        self.reorderToleranceMs = reorderToleranceMs
        self.justBootedMs = justBootedMs
        self.extrapolationGraceMs = extrapolationGraceMs
    }

    /// The latest domain time handed out.
    public var latest: LinkMilliseconds { LinkMilliseconds(floorMs) }

    /// Whether a frame has been stamped yet.
    public var hasFrames: Bool { referenceStamp != nil }

    /// The MCU's stamp in `message` and whether it is a HELLO (an uptime that may restart);
    /// nil for frames without one (LOG, ACK, host-to-MCU types).
    public static func stamp(of message: LinkMessage) -> (stampMs: UInt32, isHello: Bool)? {
        switch message {
        case let .hello(m): (m.uptimeMs, true)
        case let .heartbeat(m): (m.uptimeMs, false)
        case let .nmea(m): (m.mcuTimeMs, false)
        case let .bleAdvertisement(m): (m.mcuTimeMs, false)
        case let .nfcTag(m): (m.mcuTimeMs, false)
        case let .power(m): (m.mcuTimeMs, false)
        case .log, .ack, .unknown, .helloRequest, .eventAck, .bleFilter, .nfcWrite, .feedback, .bootloader: nil
        }
    }

    /// Domain time of `message` received at host time `hostMs`: its stamp, or for a frame
    /// without one, the extrapolated time.
    public mutating func time(of message: LinkMessage, hostMs: LinkMilliseconds) -> LinkMilliseconds {
        guard let (stamp, isHello) = LinkClock.stamp(of: message) else { return extrapolate(hostMs: hostMs) }
        return frame(stampMs: stamp, isHello: isHello, hostMs: hostMs)
    }

    /// Domain time of a frame stamped `stampMs` by the MCU, received at host time `hostMs`.
    public mutating func frame(stampMs: UInt32, isHello: Bool, hostMs: LinkMilliseconds) -> LinkMilliseconds {
        defer {
            lastFrameMs = floorMs
            lastFrameHostMs = hostMs.value
        }
        guard let reference = referenceStamp else {
            // The first frame continues from wherever extrapolation had got to.
            let start = peek(hostMs: hostMs).value
            referenceStamp = stampMs
            referenceMs = start
            floorMs = start
            return LinkMilliseconds(start)
        }
        // Signed 32-bit difference: a step across the wrap comes out small and positive.
        let step = Int64(Int32(bitPattern: stampMs &- reference))
        if step < 0 && -step > reorderToleranceMs && (isHello || stampMs <= justBootedMs) {
            // A reboot: the MCU has been up `stampMs` since; continue from the last value plus that.
            reboots += 1
            referenceStamp = stampMs
            referenceMs = floorMs + Int64(stampMs)
            floorMs = referenceMs
            return LinkMilliseconds(floorMs)
        }
        if step < 0 {
            clamped += 1
            return LinkMilliseconds(floorMs)
        }
        referenceStamp = stampMs
        referenceMs += step
        floorMs = max(floorMs, referenceMs)
        return LinkMilliseconds(floorMs)
    }

    /// Domain time now, for a timer tick or a control request while no frame arrives:
    /// the last frame's time plus the host time elapsed since it beyond the grace. Never decreases.
    public mutating func extrapolate(hostMs: LinkMilliseconds) -> LinkMilliseconds {
        let now = peek(hostMs: hostMs)
        floorMs = now.value
        return now
    }

    /// Domain time of an event the host observes itself (a gpsd fix): like `extrapolate`,
    /// without the grace, so that successive host events get distinct times.
    public mutating func hostEvent(hostMs: LinkMilliseconds) -> LinkMilliseconds {
        floorMs = max(floorMs, lastFrameMs + max(0, hostMs.value - lastFrameHostMs))
        return LinkMilliseconds(floorMs)
    }

    /// What `extrapolate` would return, without recording it (for a status read).
    public func peek(hostMs: LinkMilliseconds) -> LinkMilliseconds {
        let quietMs = hostMs.value - lastFrameHostMs
        return LinkMilliseconds(max(floorMs, lastFrameMs + max(0, quietMs - extrapolationGraceMs)))
    }
}
