import FairFuelCore
import FairFuelDomain
import FairFuelLink
import FairFuelParsers

/// Turns delivered link frames into domain events: the one path shared by the
/// live link and capture replays.
public struct LinkIngest: Sendable {
    /// The MCU's NMEA frames go through the same packet lexer and parser as `fairfuel nmea FILE`.
    public private(set) var nmea: NMEAStreamDecoder
    private var assembler = GNSSFixAssembler()
    public private(set) var monitor: DrivingMonitor
    /// The MCU's last HELLO fields (firmware, board, capabilities), nil before one arrived.
    public private(set) var firmware: (major: UInt8, minor: UInt8, patch: UInt8, boardID: UInt16, capabilities: MCUCapabilities)?
    public private(set) var helloCount = 0
    public private(set) var heartbeatCount: UInt64 = 0
    public private(set) var lastMCUDropped: UInt16 = 0
    /// Tag reads whose UID length is impossible for their technology (counted, ignored).
    public private(set) var rejectedTagCount: UInt64 = 0
    private var lastIgnition: Bool?
    /// Reliable events delivered lately, so that the MCU's repeats are delivered once.
    public private(set) var events = ReliableEventMemory()

    public init(monitor: DrivingMonitor, nmea: NMEAConfiguration = NMEAConfiguration()) {
        self.monitor = monitor
        self.nmea = NMEAStreamDecoder(configuration: nmea)
    }

    /// Whether the MCU reports ignition (from its HELLO).
    public var hasIgnitionSense: Bool { firmware?.capabilities.contains(.ignitionSense) ?? false }

    /// Whether `frame` goes on to the domain: false for a repeat of a reliable event already
    /// delivered (counted as `event_repeat`). Every frame passes here first (a HELLO clears it).
    public mutating func admit(_ frame: Frame) -> Bool {
        events.admit(frame)
    }

    /// Handles one delivered frame received at link time `time`, once (`admit`, then `handleAdmitted`).
    public mutating func handle(_ frame: Frame, at time: LinkMilliseconds, _ emit: (DomainOutput) -> Void) {
        guard admit(frame) else { return }
        handleAdmitted(frame, at: time, emit)
    }

    /// Handles a frame `admit` let through.
    public mutating func handleAdmitted(_ frame: Frame, at time: LinkMilliseconds, _ emit: (DomainOutput) -> Void) {
        switch frame.message {
        case let .nmea(report):
            nmea.feed(frame: report.sentence.span)
            var merging = assembler  // a local copy: the fix callback mutates the monitor
            while let sentence = nmea.next() {
                merging.add(sentence) { fix in monitor.handle(.fix(fix, at: time), emit) }
            }
            assembler = merging
        case let .bleAdvertisement(report):
            let identities = BeaconIdentities(address: report.address, addressType: report.addressType, data: report.data)
            monitor.handle(.advertisement(identities, rssiDBm: report.rssiDBm, at: time), emit)
        case let .nfcTag(report):
            guard let identities = try? NFCTagIdentities(technology: report.technology, uid: report.uid, ndef: report.ndef) else {
                rejectedTagCount += 1
                return
            }
            monitor.handle(.tagRead(identities, at: time), emit)
        case let .heartbeat(heartbeat):
            heartbeatCount += 1
            lastMCUDropped = heartbeat.mcuDropped
            if hasIgnitionSense { ignition(heartbeat.ignitionOn, at: time, emit) }
            monitor.handle(.tick(at: time), emit)
        case let .power(power):
            ignition(power.ignitionOn, at: time, emit)
        case let .hello(hello):
            firmware = (hello.firmwareMajor, hello.firmwareMinor, hello.firmwarePatch, hello.boardID, hello.capabilities)
            helloCount += 1
            if helloCount > 1 {
                // A new MCU clock, maybe a new receiver: an epoch cut by the restart, the date and
                // the positions its speeds are derived from belong to the old one.
                assembler.reset()
                monitor.handle(.mcuRestarted(at: time), emit)
            }
        case .log, .ack, .unknown, .helloRequest, .eventAck, .bleFilter, .nfcWrite, .feedback, .bootloader:
            break
        }
    }

    /// A fix from a GNSS source beside the link (gpsd), at link time `time`.
    public mutating func handle(fix: GNSSFix, at time: LinkMilliseconds, _ emit: (DomainOutput) -> Void) {
        monitor.handle(.fix(fix, at: time), emit)
    }

    /// Time passes without frames (a replay's end, a quiet link): timers are re-evaluated.
    public mutating func tick(at time: LinkMilliseconds, _ emit: (DomainOutput) -> Void) {
        monitor.handle(.tick(at: time), emit)
    }

    /// Ends the input: the last epoch's fix and untracked driving are flushed.
    public mutating func finish(at time: LinkMilliseconds, _ emit: (DomainOutput) -> Void) {
        var merging = assembler
        merging.flush { fix in monitor.handle(.fix(fix, at: time), emit) }
        assembler = merging
        monitor.flushUntracked(emit)
    }

    public mutating func endSession(at time: LinkMilliseconds, _ emit: (DomainOutput) -> Void) {
        monitor.handle(.endSession(at: time), emit)
    }

    public mutating func update(directory: DriverDirectory) {
        monitor.update(directory: directory)
    }

    /// A new calibration factor (a full refuel recalibrated the store).
    public mutating func update(calibrationFactor: Double) {
        monitor.update(calibrationFactor: calibrationFactor)
    }

    /// A new vehicle profile: the fuel model changes from now on.
    public mutating func update(fuel estimator: FuelEstimator) {
        monitor.update(fuel: estimator)
    }

    private mutating func ignition(_ on: Bool, at time: LinkMilliseconds, _ emit: (DomainOutput) -> Void) {
        guard on != lastIgnition else { return }
        lastIgnition = on
        monitor.handle(.ignition(on: on, at: time), emit)
    }
}
