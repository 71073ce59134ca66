import FairFuelCore
import FairFuelDomain
import FairFuelLink
import FairFuelParsers

/// The service without its I/O: events with their times in (bytes from the MCU, a GNSS fix
/// from gpsd, a control request, the passing of time), actions out (bytes to send, domain
/// output to store, deferred answers). No file descriptor, no clock, no libc: the shell
/// (`ServiceRuntime`) polls and reads, hands each event over with the host's monotonic time,
/// and performs the actions; tests hand events over at any speed.
///
/// Host time (`now` everywhere below) times the link's own work: resends, backoff, the
/// one-second tick, provisioning deadlines. Domain time is the MCU's stamps (`LinkClock`),
/// extrapolated by host time only while the link is quiet.
public final class ServiceCore {
    public let settings: ServiceCoreSettings
    /// Where the core says what happens (the shell's sink; tests capture it).
    public let logger: Logger
    /// Frames to domain events: the path shared with capture replays.
    public internal(set) var ingest: LinkIngest
    /// Names and the BLE filter (a copy: the domain's own is busy while it emits).
    public internal(set) var directory: DriverDirectory
    public internal(set) var vehicle: VehicleFuelSettings
    /// Technicians' requests look drivers up and bind tags and beacons here.
    let records: ProvisioningRecords?

    /// Domain time: the MCU's own stamps, extrapolated by host time between frames.
    var linkClock = LinkClock(hostMs: LinkMilliseconds(0))
    var decoder = FrameDecoder(sender: .mcu)
    var tracker: CommandTracker
    /// Learn mode, tag writing and the MCU's identity (ServiceCore+Provisioning.swift).
    var provisioning = ProvisioningDesk()

    /// Up or down, reconnect backoff and silence on an open link (LinkLiveness.swift).
    private var liveness: LinkLiveness
    /// The link as the shell reported it: up with how it was opened, or down.
    public var linkOpener: String? { liveness.opener }
    public var linkIsUp: Bool { liveness.isUp }
    public var reconnects: Int { liveness.reconnects }
    /// Host time of the last frame from the MCU (nil before the first).
    var lastFrameAt: LinkMilliseconds? { liveness.lastFrameAt }
    /// Host time silence began (the last frame, or the open), once it passed the limit; nil while the MCU talks.
    public var silentSince: LinkMilliseconds? { liveness.silentSince }
    private var linkTotals = LinkCounters()
    private var lastTick = LinkMilliseconds(0)
    private var lastRetention = LinkMilliseconds(0)
    /// Which unknown taps are logged and which reach the store's event log: the one place that decides.
    private var unknownTags = UnknownTagThrottle()
    /// Unknown taps not handed to the store (`UnknownTagThrottle`).
    public var unknownTagsNotRecorded: Int { unknownTags.notRecorded }
    /// Warnings about commands and the MCU's own log lines, one a minute per kind.
    private var commandLog = RateLimitedLog<CommandLogKind>()
    /// A receiver whose clock jumped has been logged once; later runs are counted in `status`.
    private var receiverTimeJumpLogged = false
    /// The link's counters as last summarised for the event log (`recordLinkErrors`), and when.
    private var linkErrorsRecorded = LinkCounters()
    private var lastLinkErrorSummary: LinkMilliseconds?
    /// Link error summaries are at most this far apart.
    static let linkErrorSummaryMs: Int64 = 60_000
    var firmwareWarning: String?
    /// gpsd's last fix (with gpsd as the GNSS source), for `status`.
    var lastSourceFix: GNSSFix?
    /// MCU NMEA frames left unused because gpsd is the GNSS source.
    var mcuNMEAIgnored: UInt64 = 0
    public private(set) var feedbackSent: [FeedbackSignal] = []

    /// `resuming`: the trip the store says may go on (continuity rules), offered to the domain.
    public init(
        settings: ServiceCoreSettings, directory: DriverDirectory, vehicle: VehicleFuelSettings,
        resuming trip: InterruptedTrip? = nil, records: ProvisioningRecords? = nil, logger: Logger = .disabled
    ) throws {
        self.settings = settings
        self.logger = logger
        self.directory = directory
        self.vehicle = vehicle
        self.records = records
        var monitor = DrivingMonitor(configuration: settings.monitor, directory: directory, fuel: try vehicle.estimator())
        if let trip { monitor.offer(trip) }
        ingest = LinkIngest(monitor: monitor, nmea: settings.nmea)
        tracker = CommandTracker(capacity: settings.transmitQueueFrames)
        liveness = LinkLiveness(
            silenceLimitMs: settings.mcuSilenceLimitMs,
            backoff: ReconnectBackoff(minimumMs: settings.reconnectBackoffMinMs, maximumMs: settings.reconnectBackoffMaxMs))
        feedbackSent.reserveCapacity(Self.feedbackKept)
    }

    static let feedbackKept = 64

    // MARK: What the shell reads

    /// The receiver's counters since start-up, across reconnections.
    public var linkCounters: LinkCounters {
        var counters = linkTotals + decoder.counters
        counters.eventRepeat = ingest.events.repeats
        return counters
    }

    /// Whether the MCU's last HELLO promised reliable events (revision 1.1): its NFC_TAG and
    /// POWER frames then get an EVENT_ACK each, copies included.
    public private(set) var mcuRepeatsEvents = false
    /// EVENT_ACKs sent (they take the host's next seq but expect no ACK: no tracking, no resend).
    public private(set) var eventAcksSent: UInt64 = 0

    /// MCU reboots the link clock has seen (its uptime restarting).
    public var mcuReboots: Int { linkClock.reboots }

    /// Domain time at host time `now` (the MCU's clock, extrapolated since its last frame).
    public func linkTime(at now: LinkMilliseconds) -> LinkMilliseconds { linkClock.peek(hostMs: now) }

    /// Whether the shell should try to open the link now (down, and its backoff has passed).
    public func wantsLink(at now: LinkMilliseconds) -> Bool { liveness.wantsLink(at: now) }

    /// How long the shell may sleep in poll before the core has work: the one-second tick,
    /// a command's resend, the link's next attempt, the silence limit.
    public func millisecondsUntilWork(at now: LinkMilliseconds) -> Int64 {
        var wait = 1_000 - min(999, now.value - lastTick.value)
        if let due = tracker.millisecondsUntilDue(at: now) { wait = min(wait, due) }
        wait = min(wait, liveness.millisecondsUntilDue(at: now))
        return max(0, wait)
    }

    // MARK: Link events

    /// The shell opened the MCU's port (`opener`: how, for `status`; `message`: for the log).
    public func linkOpened(opener: String, message: String, at now: LinkMilliseconds, _ perform: ServiceActions) {
        liveness.opened(by: opener, at: now)
        logger.notice(message)
        perform(.status("MCU link up on \(settings.port)"))
        decoder.restartStream()
        tracker.reset()
        send(.helloRequest(HelloRequest(hostMajor: 1, hostMinor: 1)), at: now, perform)
        sendBLEFilter(at: now, perform)
    }

    /// The shell could not open the port (absent, busy, held by another service): try again later.
    public func linkOpenFailed(_ message: String, at now: LinkMilliseconds) {
        if liveness.openFailed(message, at: now) { logger.warning("MCU link down: \(message); retrying with backoff") }
    }

    /// Bytes read from the MCU at host time `now`, in arrival order. No allocation per frame:
    /// each frame pulled from the decoder is handled before the next, its payload a slice of the decoder's body.
    public func received(_ bytes: ArraySlice<UInt8>, at now: LinkMilliseconds, _ perform: ServiceActions) {
        let chunk = bytes.span
        var offset = 0
        repeat {
            offset += decoder.append(chunk.extracting(droppingFirst: offset))
            while let output = decoder.next() {
                switch output {
                case let .frame(frame): handle(frame, at: now, perform)
                case let .anomaly(anomaly): logger.debug("link: \(anomaly)")
                case .duplicate: break
                }
            }
        } while offset < chunk.count
    }

    /// The port failed (unplugged, I/O error); the shell closed it. The session carries on.
    public func linkLost(_ message: String, at now: LinkMilliseconds) {
        logger.warning("MCU link lost: \(message); the session carries on, reconnecting")
        liveness.lost(at: now)
        closeDecoder()
    }

    /// A closed port's receiver: its counts join the totals, the next open starts a new stream.
    private func closeDecoder() {
        linkTotals = linkTotals + decoder.counters
        decoder = FrameDecoder(sender: .mcu)
    }

    // MARK: Liveness

    /// Warns once when an open link goes silent, reports it in `status`, and has the shell close
    /// and reopen the port (a reset MCU then gets its HELLO_REQ), with backoff.
    private func checkSilence(at now: LinkMilliseconds, _ perform: ServiceActions) {
        switch liveness.checkSilence(at: now) {
        case .none:
            return
        case let .began(seconds, framesEverHeard):
            let what = framesEverHeard
                ? "no frame, not even the HEARTBEAT due every second (the MCU may be hung or browned out)"
                : "no frame since the port was opened (is the MCU wired, powered and on the right baud rate?)"
            logger.warning("MCU link silent for \(seconds) s: \(what); reopening \(settings.port), the session carries on")
            perform(.status("MCU link silent on \(settings.port)"))
        case let .continues(seconds):
            logger.debug("MCU link still silent (\(seconds) s); reopening \(settings.port) again")
        }
        closeDecoder()
        perform(.reopenLink)
    }

    /// Any frame is a sign of life: a silence ends.
    private func heard(at now: LinkMilliseconds, _ perform: ServiceActions) {
        guard let silentMs = liveness.heard(at: now) else { return }
        logger.notice("MCU link back: frames again after \(silentMs / 1_000) s of silence")
        perform(.status("MCU link up on \(settings.port)"))
    }

    private func handle(_ frame: Frame, at now: LinkMilliseconds, _ perform: ServiceActions) {
        heard(at: now, perform)
        if case let .hello(hello) = frame.message { mcuRepeatsEvents = hello.capabilities.contains(.reliableEvents) }
        // Every copy of a reliable event is answered at once, so the MCU stops repeating it; a
        // repeat of one already delivered stops here, before it moves the clock or the session.
        if mcuRepeatsEvents && ReliableEventMemory.isReliableEvent(frame.message) {
            acknowledgeEvent(seq: frame.seq, perform)
        }
        guard ingest.admit(frame) else { return }
        // Domain time is the MCU's stamp (every frame moves the clock); `now`, the host's, times replies only.
        let rebootsBefore = linkClock.reboots
        let time = linkClock.time(of: frame.message, hostMs: now)
        if provisioningTakes(frame, at: now, perform) { return }
        switch frame.message {
        case let .ack(ack):
            tracker.acknowledge(ack) { outcome in handle(outcome, at: now) }
            return
        case let .hello(hello):
            checkFirmware(hello)
            if ingest.helloCount > 0 {
                // A HELLO answering our HELLO_REQ keeps its uptime growing; a reboot's restarts it.
                if linkClock.reboots > rebootsBefore {
                    logger.notice("MCU rebooted (new HELLO, uptime \(hello.uptimeMs) ms); the session carries on")
                } else {
                    logger.debug("MCU HELLO again (uptime \(hello.uptimeMs) ms)")
                }
                sendBLEFilter(at: now, perform)
            }
        case let .log(log):
            // An MCU that babbles is heard a line a minute per level; debug lines cost nothing when off.
            if log.level == .error || log.level == .warn {
                let kind: CommandLogKind = log.level == .error ? .mcuError : .mcuWarning
                if case let .line(suppressed) = commandLog.admit(kind, nowMs: now.value) {
                    logger.log(log.level == .error ? .error : .warning, "MCU: \(log.text)" + (suppressed > 0 ? " (and \(suppressed) more in the minute before)" : ""))
                }
            } else {
                logger.debug("MCU: \(log.text)")
            }
        default:
            break
        }
        if case .nmea = frame.message, settings.gnssFromGPSD {
            mcuNMEAIgnored += 1
            return
        }
        ingest.handleAdmitted(frame, at: time) { output in record(output, at: now, perform) }
    }

    /// EVENT_ACK for the MCU frame `seq`: framed with the host's next seq, sent once.
    private func acknowledgeEvent(seq: UInt16, _ perform: ServiceActions) {
        guard linkIsUp, let framed = tracker.frameUnacknowledged(.eventAck(EventAck(ackedSeq: seq))) else { return }
        eventAcksSent += 1
        perform(.send(framed.wire))
    }

    // MARK: GNSS beside the link

    /// A fix from gpsd, read at host time `now`.
    public func gnssFix(_ fix: GNSSFix, at now: LinkMilliseconds, _ perform: ServiceActions) {
        lastSourceFix = fix
        ingest.handle(fix: fix, at: linkClock.hostEvent(hostMs: now)) { output in record(output, at: now, perform) }
    }

    // MARK: Time

    /// Time passes (the shell calls this after every poll): resends, the one-second domain
    /// tick, the hourly retention pass, provisioning deadlines.
    public func timePassed(at now: LinkMilliseconds, _ perform: ServiceActions) {
        tracker.due(at: now, resend: { wire in perform(.send(wire)) }) { outcome in handle(outcome, at: now) }
        checkSilence(at: now, perform)
        if now.value - lastRetention.value >= 3_600_000 {
            lastRetention = now
            perform(.enforceRetention(nowUTCMs: ingest.monitor.utc.utc(linkClock.peek(hostMs: now))?.millisecondsSinceEpoch))
        }
        if now.value - lastTick.value >= 1_000 {
            lastTick = now
            unknownTags.drainSummaries(nowMs: now.value) { count in logger.notice("\(count) more unknown tag tap(s) in the last minute") }
            commandLog.drainSummaries(nowMs: now.value) { kind, count in logger.warning("\(count) more \(kind.summary) in the last minute") }
            // The one use of host time in domain time: a quiet or unplugged link still lets
            // time pass (a session can end during an unplug); see LinkClock.
            ingest.tick(at: linkClock.extrapolate(hostMs: now)) { output in record(output, at: now, perform) }
            // Space may have come back: records held for a full disk go in without a restart.
            perform(.retryStoreWrites)
            summarizeLinkErrors(at: now, perform)
        }
        provisioningTick(at: now, perform)
    }

    /// The service stops: the last epoch's fix and untracked driving are flushed to the store.
    public func finish(at now: LinkMilliseconds, _ perform: ServiceActions) {
        ingest.finish(at: linkClock.extrapolate(hostMs: now)) { output in record(output, at: now, perform) }
        summarizeLinkErrors(at: now, perform, final: true)
        liveness.stop()
    }

    /// Hands the link's errors since the last summary to the shell: at once after a quiet
    /// minute, then at most once a minute (`final`: at the stop, whatever the time); nothing
    /// when there was no error. Counter arithmetic only: the tick allocates nothing.
    private func summarizeLinkErrors(at now: LinkMilliseconds, _ perform: ServiceActions, final: Bool = false) {
        if !final, let last = lastLinkErrorSummary, now.value - last.value < Self.linkErrorSummaryMs { return }
        let counters = linkCounters
        guard counters.errorTotal > linkErrorsRecorded.errorTotal else { return }
        perform(.recordLinkErrors(counters.since(linkErrorsRecorded), at: linkClock.peek(hostMs: now)))
        linkErrorsRecorded = counters
        lastLinkErrorSummary = now
    }

    // MARK: Domain output

    func record(_ output: DomainOutput, at now: LinkMilliseconds, _ perform: ServiceActions) {
        var unknownTag: UnknownTagThrottle.Decision?
        if case let .unknownTag(uid, at) = output {
            unknownTag = unknownTags.admit(uid, at: at, nowMs: now.value)
        }
        if unknownTag?.record != false { perform(.record(output)) }
        switch output {
        case let .feedback(signal):
            if feedbackSent.count == Self.feedbackKept { feedbackSent.removeFirst() }
            feedbackSent.append(signal)
            send(.feedback(signal.linkPattern), at: now, perform)
        case let .sessionStarted(driver, _):
            logger.notice("session started: \(name(of: driver))")
            perform(.driverChanged(name(of: driver)))
        case let .sessionResumed(resumption):
            let name = name(of: resumption.driver)
            logger.notice(resumption.continuing
                ? "session resumed without a tap: \(name)'s trip goes on (after a \(resumption.origin == .restart ? "restart" : "stop"))"
                : "session started without a tap: \(name) drives on after a park (continuity rules)")
        case .interruptedTripEnded:
            logger.notice("the trip left open at the restart does not go on: ended at its last stored point (power_loss)")
        case let .untrackedDriving(chunk) where !chunk.candidates.isEmpty:
            logger.info("untracked driving, \(JSONLine.formatFixed(chunk.distance.kilometers, decimals: 2)) km; candidates: \(chunk.candidates.drivers.map { name(of: $0) }.joined(separator: ", "))")
        case let .sessionEnded(record):
            logger.notice("session ended: \(name(of: record.driver)) (\(record.reason.rawValue)), \(JSONLine.formatFixed(record.metrics.distance.kilometers, decimals: 2)) km")
            perform(.driverChanged(nil))
            perform(.recordsQueued)
        case let .unknownTag(uid, _):
            // A card held on the reader, or tapped again and again: one line a minute, then a count.
            guard case let .line(suppressed)? = unknownTag?.line else { break }
            if suppressed > 0 { logger.notice("\(suppressed) more unknown tag tap(s) in the minute before") }
            if uid.isRandomlyGenerated {
                logger.notice("unknown tag \(uid) rejected: a random UID (a bank card or a phone), new at every tap, so it cannot identify a driver; give the driver a tag of their own")
            } else {
                logger.notice("unknown tag \(uid) rejected; provision it with: fairfuel provision driver add NAME --tag \(uid.plainHex)")
            }
        case let .utcAnchored(offset, _):
            logger.info("UTC known from GNSS (offset \(offset) ms)")
        case let .receiverTimeRejected(stepMs, _) where !receiverTimeJumpLogged:
            receiverTimeJumpLogged = true
            logger.warning(
                "GNSS receiver time jumped \(stepMs < 0 ? "back" : "forward") by \(JSONLine.formatFixed(Double(abs(stepMs)) / 1_000, decimals: 1)) s "
                    + "against the MCU's clock: bad epochs are left out of trips (logged once; counted in status as gnss_bad_epochs)")
        default:
            break
        }
    }

    private func name(of driver: DriverID) -> String { directory.name(of: driver) ?? "\(driver)" }

    // MARK: Commands to the MCU

    private func handle(_ outcome: CommandOutcome, at now: LinkMilliseconds) {
        switch outcome {
        case let .acknowledged(seq, type, status) where status != .ok:
            warnOnce(.refusedCommand(type: type), at: now, "MCU answered command 0x\(String(type, radix: 16)) seq \(seq) with \(status.name)")
        case let .unanswered(seq, type) where !provisioningAwaitsLateAck(seq):
            warnOnce(.unansweredCommand(type: type), at: now, "MCU did not acknowledge command 0x\(String(type, radix: 16)) seq \(seq) after 3 resends")
        case let .refused(type):
            warnOnce(.transmitQueueFull(type: type), at: now, "transmit queue full: command 0x\(String(type, radix: 16)) not sent")
        default:
            break
        }
    }

    /// A warning that can come thousands of times a second (a card held on the reader, an MCU
    /// that stopped answering): its first line in a minute, then a count of the rest.
    private func warnOnce(_ kind: CommandLogKind, at now: LinkMilliseconds, _ message: @autoclosure () -> String) {
        guard case let .line(suppressed) = commandLog.admit(kind, nowMs: now.value) else { return }
        logger.warning(message() + (suppressed > 0 ? " (and \(suppressed) more in the minute before)" : ""))
    }

    /// Sends a command through the tracker (its resends follow from `timePassed`); nothing while the link is down.
    func send(_ message: LinkMessage, at now: LinkMilliseconds, _ perform: ServiceActions) {
        guard linkIsUp else { return }
        guard let sent = tracker.send(message, at: now, { outcome in handle(outcome, at: now) }) else { return }
        perform(.send(sent.wire))
    }

    func sendBLEFilter(at now: LinkMilliseconds, _ perform: ServiceActions) {
        var entries: [BLEFilter.Entry] = []
        for binding in directory.beacons {
            let entry: BLEFilter.Entry
            switch binding.identity {
            case let .iBeacon(uuid, _, _): entry = .iBeaconUUID(uuid.bytes)
            case let .eddystoneUID(namespace, _): entry = .eddystoneNamespace((0..<10).map { namespace.byte(at: $0) })
            case let .address(address): entry = .address(address.bytes)
            case .altBeacon: continue  // no filter kind for AltBeacon: report every advertisement instead
            }
            if !entries.contains(entry) { entries.append(entry) }
        }
        let hasAltBeacon = directory.beacons.contains { if case .altBeacon = $0.identity { true } else { false } }
        // Learning a new beacon needs every advertisement; so do AltBeacons and more than 16 entries.
        if hasAltBeacon || entries.count > BLEFilter.maximumEntries { entries = [] }
        send(.bleFilter(BLEFilter(entries: entries)), at: now, perform)
    }

    private func checkFirmware(_ hello: Hello) {
        switch settings.checkFirmware(hello) {
        case .unknownBoard:
            firmwareWarning = "unknown MCU board 0x\(String(hello.boardID, radix: 16))"
            logger.warning(firmwareWarning!)
            return
        case let .mismatches(warning):
            firmwareWarning = warning
            logger.warning("MCU \(hello.name): \(warning)")
        case .matches:
            firmwareWarning = nil
        }
        logger.info("MCU \(hello.name) firmware \(hello.firmwareVersion), board 0x\(String(hello.boardID, radix: 16))")
    }
}

/// The kinds of warning the core rate-limits (`warnOnce`), per command type: at most a few
/// hundred kinds, each a line a minute.
enum CommandLogKind: Hashable, Sendable {
    case transmitQueueFull(type: UInt8)
    case unansweredCommand(type: UInt8)
    case refusedCommand(type: UInt8)
    case mcuWarning, mcuError

    var summary: String {
        switch self {
        case let .transmitQueueFull(type): "command(s) 0x\(String(type, radix: 16)) not sent: transmit queue full"
        case let .unansweredCommand(type): "command(s) 0x\(String(type, radix: 16)) the MCU did not acknowledge"
        case let .refusedCommand(type): "command(s) 0x\(String(type, radix: 16)) the MCU refused"
        case .mcuWarning: "MCU warning(s)"
        case .mcuError: "MCU error(s)"
        }
    }
}

extension FeedbackSignal {
    /// The FEEDBACK pattern the MCU plays for this signal.
    var linkPattern: Feedback {
        switch self {
        case .accepted: .accepted
        case .rejected: .rejected
        case .sessionStarted: .sessionStarted
        case .sessionEnded: .sessionEnded
        case .provisioning: .provisioning
        }
    }
}

extension LinkCounters {
    /// The error counts added after `earlier` (counters only grow); `frames` is left at 0.
    func since(_ earlier: LinkCounters) -> LinkCounters {
        var difference = LinkCounters()
        difference.cobsError = cobsError - earlier.cobsError
        difference.crcError = crcError - earlier.crcError
        difference.oversize = oversize - earlier.oversize
        difference.badVersion = badVersion - earlier.badVersion
        difference.unknownType = unknownType - earlier.unknownType
        difference.badPayload = badPayload - earlier.badPayload
        difference.lost = lost - earlier.lost
        difference.duplicate = duplicate - earlier.duplicate
        return difference
    }
}
