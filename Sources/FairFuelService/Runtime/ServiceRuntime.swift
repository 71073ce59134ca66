import FairFuelConfiguration
import FairFuelCore
import FairFuelDomain
import FairFuelEdges
import FairFuelLink
import FairFuelParsers
import FairFuelStore

#if canImport(Glibc)
import Glibc
#endif

/// The program that runs in the car: the MCU link, the domain, the store and the
/// control socket in one poll loop (no busy loop: an idle dongle sleeps in poll).
public final class ServiceRuntime {
    public struct Options {
        public var board: BoardProfile
        public var storePath: String
        public var port: String
        public var baud: Int
        public var controlSocketPath: String?
        public var catalog: MCUBoardCatalog
        public var logger: Logger
        /// systemd's notify socket (readiness, watchdog); a no-op outside systemd.
        public var notifier: SystemdNotifier

        public init(board: BoardProfile, storePath: String? = nil, port: String? = nil, controlSocketPath: String? = nil,
                    catalog: MCUBoardCatalog = .builtIn, logger: Logger, notifier: SystemdNotifier = SystemdNotifier(environment: [:])) {
            self.board = board
            self.storePath = storePath ?? board.store.path
            self.port = port ?? board.link.port
            baud = board.link.baud
            self.controlSocketPath = controlSocketPath ?? board.control.socketPath
            self.catalog = catalog
            self.logger = logger
            self.notifier = notifier
        }
    }

    public let options: Options
    var logger: Logger { options.logger }
    /// The host's clock: I/O timing only (resends, backoff, watchdog, tick and retention intervals).
    let clock = MonotonicClock()
    /// Domain time: the MCU's own stamps, extrapolated by the host clock between frames.
    var linkClock = LinkClock(hostMs: LinkMilliseconds(0))
    /// gpsd as the GNSS source, when the board profile says `gnss.source = gpsd`.
    private var gpsd: GPSDClient?
    private var lastGPSDFix: GNSSFix?
    /// MCU NMEA frames left unused because gpsd is the GNSS source.
    private var mcuNMEAIgnored: UInt64 = 0
    private var lastWatchdog = LinkMilliseconds(0)
    private var lastRetention = LinkMilliseconds(0)
    let store: TripStore
    private let run: Int64
    var ingest: LinkIngest
    // A copy for names and the BLE filter: the domain's own is busy while it emits.
    private var directory: DriverDirectory
    private let recorder: SessionRecorder
    var tracker: CommandTracker
    private var decoder = FrameDecoder(sender: .mcu)
    private var ring: ByteRing
    private var scratch: [UInt8]
    var connection: SerialConnection?
    var control: ControlSocketServer?
    /// Learn mode, tag writing and the MCU's identity (ServiceRuntime+Provisioning.swift).
    var provisioning = ProvisioningDesk()
    private var nextConnectAt = LinkMilliseconds(0)
    private var backoffMs: Int64
    private var lastTick = LinkMilliseconds(0)
    private var lastOpenError: String?
    private var lastFix: GNSSFix?
    private var firmwareWarning: String?
    private var linkTotals = LinkCounters()
    private var reconnects = 0
    private var stopRequested = false
    /// The vehicle profile the fuel estimate runs on (reloaded with the provisioning).
    private var vehicle: VehicleProfile
    public private(set) var feedbackSent: [FeedbackSignal] = []
    /// What earlier runs could not keep (the store's `store_losses` at start-up).
    private var lostBefore = StoreLosses()
    /// What this run could not keep, set at shutdown; nil until then.
    public private(set) var shutdownLosses: StoreLosses?

    public init(options: Options) throws {
        self.options = options
        let logger = options.logger
        var configuration = StoreConfiguration()
        configuration.retention = RetentionPolicy(
            diskBudgetBytes: options.board.store.diskBudgetBytes, tripPointMaxAgeDays: options.board.store.tripPointMaxAgeDays,
            eventLogMaxRows: options.board.store.eventLogMaxRows, diskReserveBytes: options.board.store.diskReserveBytes)
        configuration.retention.walLimitBytes = options.board.store.walLimitBytes
        configuration.pageCacheKiB = options.board.store.pageCacheKiB
        configuration.log = { level, message in
            switch level {
            case .error: logger.error(message)
            case .warning: logger.warning(message)
            default: logger.info(message)
            }
        }
        // A corrupt store is moved aside (never deleted) and a fresh one started; the wall
        // clock, maybe wrong without an RTC, only names the moved file.
        var wallClock = timespec()
        clock_gettime(CLOCK_REALTIME, &wallClock)
        store = try TripStore.openCheckingIntegrity(
            path: options.storePath, configuration: configuration,
            wallClockUTCMs: Int64(wallClock.tv_sec) * 1000 + Int64(wallClock.tv_nsec) / 1_000_000).store
        // Retention once at start-up (without a trusted time: the disk budget only), then hourly.
        if let report = try? store.enforceRetention(nowUTCMs: nil) { logger.debug("retention at start-up: \(report)") }
        let monitorConfiguration = options.board.monitorConfiguration
        let resumable = try store.tripToContinue(motion: monitorConfiguration.motion, session: monitorConfiguration.session)
        run = try store.beginRun(note: "service")
        let directory = try store.directory()
        self.directory = directory
        let vehicle = try store.vehicle()
        self.vehicle = vehicle
        var monitor = DrivingMonitor(configuration: monitorConfiguration, directory: directory, fuel: try FuelSetup.estimator(for: vehicle))
        if let resumable { monitor.offer(resumable.trip) }
        ingest = LinkIngest(monitor: monitor, nmea: options.board.nmeaConfiguration)
        recorder = SessionRecorder(
            store: store, run: run, directory: directory, policy: options.board.flushPolicy, fuelScale: vehicle.fuelScale,
            pendingRecordsMax: options.board.store.pendingRecordsMax, continuing: resumable?.session,
            holding: resumable?.heldUntracked ?? [])
        recorder.logger = logger
        lostBefore = (try? store.losses()) ?? StoreLosses()
        tracker = CommandTracker(capacity: options.board.link.transmitQueueFrames)
        ring = ByteRing(capacity: options.board.link.receiveRingBytes)
        scratch = [UInt8](repeating: 0, count: options.board.link.receiveRingBytes)
        backoffMs = Int64(options.board.link.reconnectBackoffMinMs)
        if options.board.gnss.source == .gpsd {
            gpsd = GPSDClient(
                host: options.board.gnss.gpsdHost, port: options.board.gnss.gpsdPort,
                backoffMinimumMs: Int64(options.board.link.reconnectBackoffMinMs),
                backoffMaximumMs: Int64(options.board.link.reconnectBackoffMaxMs))
        }
        if let resumable {
            let name = directory.name(of: resumable.trip.driver) ?? "driver \(resumable.trip.driver.rawValue)"
            logger.notice(resumable.trip.isOpen
                ? "session \(resumable.session.rawValue) (\(name)) was open when the service stopped; it goes on if the receiver's time, its position and \(name)'s beacon say it is the same trip"
                : "\(name)'s last trip may go on without a tap (continuity rules)")
        }
        if let path = options.controlSocketPath {
            do {
                control = try ControlSocketServer(
                    path: path, mode: mode_t(options.board.control.socketMode), group: options.board.control.group,
                    maximumClients: options.board.control.maxClients)
            } catch {
                // Another live service answers there: two services must not share a socket.
                if error.inUseByPID != nil || error.errnoCode == EADDRINUSE { throw error }
                logger.warning("\(error); running without a control socket")
            }
        }
    }

    /// Runs until `requestStop` (or `shouldStop`) says so; `extraDescriptors` are polled too
    /// (a signal fd) and `onReadable` is called when one is readable.
    public func runLoop(extraDescriptors: [Int32] = [], onReadable: (Int32) -> Void = { _ in }, shouldStop: () -> Bool = { false }) {
        logger.info("service started: store \(options.storePath), MCU port \(options.port)")
        try? options.notifier.ready(status: "waiting for the MCU on \(options.port)")
        while !stopRequested && !shouldStop() {
            let now = clock.now
            if connection == nil && now >= nextConnectAt { connect(at: now) }
            if let event = gpsd?.reconnectIfDue() { log(gpsd: event) }

            var descriptors: [pollfd] = []
            if let connection { descriptors.append(pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
            for fd in extraDescriptors { descriptors.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            let gpsdDescriptor = gpsd?.fileDescriptor
            if let gpsdDescriptor { descriptors.append(pollfd(fd: gpsdDescriptor, events: Int16(POLLIN), revents: 0)) }
            for fd in control?.pollDescriptors ?? [] { descriptors.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            var timeout: Int64 = 1_000 - min(999, now.value - lastTick.value)
            if let due = tracker.millisecondsUntilDue(at: now) { timeout = min(timeout, due) }
            if connection == nil { timeout = min(timeout, max(0, nextConnectAt.value - now.value)) }
            if let untilGPSD = gpsd?.millisecondsUntilReconnect() { timeout = min(timeout, untilGPSD) }
            _ = poll(&descriptors, nfds_t(descriptors.count), Int32(max(0, timeout)))

            let after = clock.now
            if connection != nil { readLink(at: after) }
            if let gpsdDescriptor, descriptors.contains(where: { $0.fd == gpsdDescriptor && $0.revents != 0 }) {
                readGPSD(at: after)
            }
            for descriptor in descriptors where descriptor.revents != 0 && extraDescriptors.contains(descriptor.fd) {
                onReadable(descriptor.fd)
            }
            tracker.due(at: after, resend: { wire in write(wire) }) { outcome in handle(outcome) }
            if let interval = options.notifier.watchdogPingIntervalMs, after.value - lastWatchdog.value >= interval {
                lastWatchdog = after
                try? options.notifier.watchdog()
            }
            if after.value - lastRetention.value >= 3_600_000 {
                lastRetention = after
                enforceRetention(at: linkClock.peek(hostMs: after))
            }
            if after.value - lastTick.value >= 1_000 {
                lastTick = after
                // The one use of the host clock in domain time: a quiet or unplugged link still
                // lets time pass (a session can end during an unplug); see LinkClock.
                ingest.tick(at: linkClock.extrapolate(hostMs: after)) { output in record(output, at: after) }
                // Space may have come back: records held for a full disk go in without a restart.
                if recorder.isBehind { recorder.flush() }
            }
            control?.service(nowMs: after.value) { request in answer(request) }
            provisioningTick(at: after)
        }
        shutdown()
    }

    /// Asks the loop to stop after the current iteration (SIGTERM).
    public func requestStop() { stopRequested = true }

    /// Sessions started and ended since start-up (read on the loop's thread, e.g. in `shouldStop`).
    public var sessionCounts: (started: Int, ended: Int) { (recorder.sessionsStarted, recorder.sessionsEnded) }

    /// The receiver's counters since start-up, across reconnections.
    public var linkCounters: LinkCounters { linkTotals + decoder.counters }

    /// MCU reboots the link clock has seen (its uptime restarting).
    public var mcuReboots: Int { linkClock.reboots }

    /// Domain time now (the MCU's clock, extrapolated since its last frame).
    public var linkTime: LinkMilliseconds { linkClock.peek(hostMs: clock.now) }

    /// Re-reads what the family and technicians change from the store (SIGHUP, the control
    /// socket's `reload`, which every CLI command that changes them sends): the drivers and
    /// their tags and beacons, the vehicle profile and the fuel calibration after a full refuel.
    public func reloadProvisioning() {
        try? options.notifier.reloading()
        defer { try? options.notifier.ready(status: connection == nil ? "MCU link down" : "running") }
        do {
            let directory = try store.directory()
            self.directory = directory
            ingest.update(directory: directory)
            recorder.update(directory: directory)
            sendBLEFilter(at: clock.now)
            logger.info("provisioning reloaded: \(directory.drivers.count) driver(s)")
        } catch {
            logger.error("cannot reload provisioning: \(error)")
        }
        do {
            let latest = try store.vehicle()
            let modelChanged = latest.massKilograms != vehicle.massKilograms || latest.ratedLitersPer100km != vehicle.ratedLitersPer100km
                || latest.idleLitersPerHour != vehicle.idleLitersPerHour || latest.fuelType != vehicle.fuelType
            if modelChanged {
                ingest.update(fuel: try FuelSetup.estimator(for: latest))
                logger.info("vehicle profile reloaded: \(latest.ratedLitersPer100km) L/100 km rated, \(latest.massKilograms) kg")
            } else if latest.fuelScale != vehicle.fuelScale {
                ingest.update(calibrationFactor: latest.fuelScale)
            }
            if latest.fuelScale != vehicle.fuelScale {
                logger.info("fuel calibration reloaded: factor \(JSONLine.formatFixed(latest.fuelScale, decimals: 4)) (was \(JSONLine.formatFixed(vehicle.fuelScale, decimals: 4)))")
            }
            recorder.fuelScale = latest.fuelScale
            vehicle = latest
        } catch {
            logger.error("cannot reload the vehicle profile: \(error)")
        }
    }

    /// The hourly retention pass, with GNSS time once it is known (the age limit needs it).
    private func enforceRetention(at now: LinkMilliseconds) {
        recorder.flush()
        let utc = ingest.monitor.utc.utc(now)?.millisecondsSinceEpoch
        do {
            let report = try store.enforceRetention(nowUTCMs: utc)
            logger.debug("retention: \(report)")
        } catch {
            logger.warning("retention pass failed: \(error)")
        }
    }

    private func shutdown() {
        try? options.notifier.stopping()
        let now = clock.now
        ingest.finish(at: linkClock.extrapolate(hostMs: now)) { output in record(output, at: now) }
        let (lost, saved) = recorder.finish()
        shutdownLosses = lost
        connection?.close()
        connection = nil
        if lost.isEmpty {
            logger.info("service stopped: \(recorder.pointsWritten) trip points written, store flushed")
        } else {
            // Never "flushed" when something was not kept: say exactly what, and whether it is counted in the store.
            logger.error("service stopped: \(recorder.pointsWritten) trip points written; the store could not keep \(lost)"
                + (saved ? " (counted in the store: fairfuel status)" : "; the store could not even count this: the disk is full"))
        }
    }

    // MARK: Link

    private func connect(at now: LinkMilliseconds) {
        do {
            var opened: String?
            let connection = try SerialOpener.open(path: options.port, baud: options.baud) { opened = $0 }
            if let held = InstanceLock.lockPort(descriptor: connection.fileDescriptor, path: options.port) {
                // Another service reads this MCU: never share its frames; try again later.
                connection.close()
                throw held
            }
            self.connection = connection
            logger.notice(opened ?? "opened \(options.port)")
            try? options.notifier.status("MCU link up on \(options.port)")
            lastOpenError = nil
            backoffMs = Int64(options.board.link.reconnectBackoffMinMs)
            decoder.restartStream()
            ring.removeAll()
            tracker.reset()
            send(.helloRequest(HelloRequest(hostMajor: 1, hostMinor: 0)), at: now)
            sendBLEFilter(at: now)
        } catch {
            let message = "\(error)"
            if message != lastOpenError { logger.warning("MCU link down: \(message); retrying with backoff") }
            lastOpenError = message
            nextConnectAt = now + backoffMs
            backoffMs = min(backoffMs * 2, Int64(options.board.link.reconnectBackoffMaxMs))
        }
    }

    private func readLink(at now: LinkMilliseconds) {
        guard let connection else { return }
        do {
            while case .bytes = try connection.read(into: &ring, scratch: &scratch, timeoutMs: 0) {
                drainRing(at: now)
            }
            drainRing(at: now)
        } catch {
            drainRing(at: now)
            linkTotals = linkTotals + decoder.counters
            decoder = FrameDecoder(sender: .mcu)
            logger.warning("MCU link lost: \(error); the session carries on, reconnecting")
            connection.close()
            self.connection = nil
            reconnects += 1
            nextConnectAt = now + backoffMs
        }
    }

    private func drainRing(at now: LinkMilliseconds) {
        // Frames are handled inside the callback: their payloads are slices of the
        // decoder's buffer, valid until it decodes the next frame.
        ring.drain { chunk in
            decoder.decode(chunk) { output in
                switch output {
                case let .frame(frame): handle(frame, at: now)
                case let .anomaly(anomaly): logger.debug("link: \(anomaly)")
                case .duplicate: break
                }
            }
        }
    }

    private func handle(_ frame: Frame, at now: LinkMilliseconds) {
        // Domain time is the MCU's stamp (every frame moves the clock); `now`, the host's, times replies only.
        let rebootsBefore = linkClock.reboots
        let time = linkClock.time(of: frame.message, hostMs: now)
        if provisioningTakes(frame, at: now) { return }
        switch frame.message {
        case let .ack(ack):
            tracker.acknowledge(ack) { outcome in handle(outcome) }
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
                sendBLEFilter(at: now)
            }
        case let .log(log):
            logger.log(log.level == .error ? .error : log.level == .warn ? .warning : .debug, "MCU: \(log.text)")
        default:
            break
        }
        if case .nmea = frame.message, gpsd != nil {
            mcuNMEAIgnored += 1
            return
        }
        ingest.handle(frame, at: time) { output in record(output, at: now) }
    }

    // MARK: gpsd

    private func readGPSD(at now: LinkMilliseconds) {
        guard let gpsd else { return }
        let event = gpsd.readAvailable { fix in
            lastGPSDFix = fix
            ingest.handle(fix: fix, at: linkClock.hostEvent(hostMs: now)) { output in record(output, at: now) }
        }
        log(gpsd: event)
    }

    private func log(gpsd event: GPSDClient.Event) {
        switch event {
        case .connected:
            logger.notice("gpsd connected at \(options.board.gnss.gpsdHost):\(options.board.gnss.gpsdPort)")
        case let .connectFailed(error, retry):
            if gpsd?.counters.failedConnects == 1 || retry >= Int64(options.board.link.reconnectBackoffMaxMs) {
                logger.warning("gpsd unreachable: \(error); retrying in \(retry) ms")
            }
        case let .disconnected(error, retry):
            logger.warning("gpsd lost: \(error); reconnecting in \(retry) ms")
        case .reports, .timedOut:
            break
        }
    }

    private func record(_ output: DomainOutput, at now: LinkMilliseconds) {
        recorder.record(output)
        switch output {
        case let .feedback(signal):
            feedbackSent.append(signal)
            if feedbackSent.count > 64 { feedbackSent.removeFirst() }
            send(.feedback(signal.linkPattern), at: now)
        case let .sessionStarted(driver, _):
            logger.notice("session started: \(directory.name(of: driver) ?? "\(driver)")")
        case let .sessionResumed(resumption):
            let name = directory.name(of: resumption.driver) ?? "\(resumption.driver)"
            logger.notice(resumption.continuing
                ? "session resumed without a tap: \(name)'s trip goes on (after a \(resumption.origin == .restart ? "restart" : "stop"))"
                : "session started without a tap: \(name) drives on after a park (continuity rules)")
        case .interruptedTripEnded:
            logger.notice("the trip left open at the restart does not go on: ended at its last stored point (power_loss)")
        case let .untrackedDriving(chunk) where !chunk.candidates.isEmpty:
            logger.info("untracked driving, \(JSONLine.formatFixed(chunk.distance.kilometers, decimals: 2)) km; candidates: \(chunk.candidates.drivers.map { directory.name(of: $0) ?? "\($0)" }.joined(separator: ", "))")
        case let .sessionEnded(record):
            logger.notice("session ended: \(directory.name(of: record.driver) ?? "\(record.driver)") (\(record.reason.rawValue)), \(JSONLine.formatFixed(record.metrics.distance.kilometers, decimals: 2)) km")
        case let .unknownTag(uid, _):
            logger.notice("unknown tag \(uid) rejected; provision it with: fairfuel provision driver add NAME --tag \(uid.plainHex)")
        case let .utcAnchored(offset, _):
            logger.info("UTC known from GNSS (offset \(offset) ms)")
        default:
            break
        }
    }

    private func handle(_ outcome: CommandOutcome) {
        switch outcome {
        case let .acknowledged(seq, type, status) where status != .ok:
            logger.warning("MCU answered command 0x\(String(type, radix: 16)) seq \(seq) with \(status.name)")
        case let .unanswered(seq, type) where !provisioningAwaitsLateAck(seq):
            logger.warning("MCU did not acknowledge command 0x\(String(type, radix: 16)) seq \(seq) after 3 resends")
        case let .refused(type):
            logger.warning("transmit queue full: command 0x\(String(type, radix: 16)) not sent")
        default:
            break
        }
    }

    func send(_ message: LinkMessage, at now: LinkMilliseconds) {
        guard connection != nil else { return }
        guard let wire = tracker.send(message, at: now, { outcome in handle(outcome) }) else { return }
        write(wire)
    }

    func write(_ wire: [UInt8]) {
        do {
            try connection?.write(wire)
        } catch {
            logger.warning("cannot write to the MCU: \(error)")
        }
    }

    private func sendBLEFilter(at now: LinkMilliseconds) {
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
        send(.bleFilter(BLEFilter(entries: entries)), at: now)
    }

    private func checkFirmware(_ hello: Hello) {
        guard let profile = options.catalog.profile(named: options.board.link.mcuBoard) ?? options.catalog.profile(for: hello) else {
            firmwareWarning = "unknown MCU board 0x\(String(hello.boardID, radix: 16))"
            logger.warning(firmwareWarning!)
            return
        }
        let mismatches = profile.mismatches(with: hello)
        firmwareWarning = mismatches.isEmpty ? nil : mismatches.map(\.description).joined(separator: "; ")
        if let warning = firmwareWarning { logger.warning("MCU \(hello.name): \(warning)") }
        logger.info("MCU \(hello.name) firmware \(hello.firmwareVersion), board 0x\(String(hello.boardID, radix: 16))")
    }

    // MARK: Control socket

    private func answer(_ request: String) -> String {
        let words = request.split(separator: " ").map(String.init)
        switch words.first ?? "" {
        case "status":
            return statusJSON() + "\n"
        case "session" where words.count == 2 && words[1] == "end":
            let host = clock.now
            let now = linkClock.extrapolate(hostMs: host)
            let hadSession = ingest.monitor.machine.driver != nil
            ingest.endSession(at: now) { output in record(output, at: host) }
            return hadSession ? "ok: session ended\n" : "ok: no session was open\n"
        case "reload":
            reloadProvisioning()
            return "ok: reloaded\n"
        case "learn-tag", "learn-beacon", "write-tag", "mcu":
            return provisioningAnswer(words)
        default:
            return "error: unknown request '\(request.prefix(40))' (status, session end, reload)\n"
        }
    }

    /// Link state, firmware, frame counters, GNSS, beacons in range, session and store size.
    public func statusJSON() -> String {
        let now = linkClock.peek(hostMs: clock.now)
        var json = JSONLine()
        json.add("link", connection == nil ? "down" : "up")
        json.add("port", options.port)
        json.add("opener", connection?.opener.rawValue)
        json.add("reconnects", reconnects)
        if let firmware = ingest.firmware {
            json.add("firmware", "\(firmware.major).\(firmware.minor).\(firmware.patch)")
            json.add("board_id", firmware.boardID)
        } else {
            json.add("firmware", nil as String?)
        }
        json.add("firmware_warning", firmwareWarning)
        json.addRaw("frames", json: (linkTotals + decoder.counters).jsonObject)
        let monitor = ingest.monitor
        json.add("gnss_fixes_rejected", monitor.motion.rejectedGateCount + monitor.motion.rejectedOutlierCount)
        json.add("utc_known", monitor.utc.offsetMs != nil)
        json.add("link_time_ms", now.value)
        json.add("mcu_reboots", linkClock.reboots)
        json.add("gnss_source", options.board.gnss.source.rawValue)
        json.add("gnss_fix", monitor.motion.lastAccepted != nil)
        if let gpsd {
            json.add("gpsd", gpsd.isConnected ? "connected" : "down")
            json.add("gpsd_fixes", Int(gpsd.counters.fixes))
            json.add("gpsd_mode", lastGPSDFix.map { Int($0.mode.rawValue) })
            json.add("satellites", lastGPSDFix?.satellitesUsed)
            json.add("mcu_nmea_ignored", Int(mcuNMEAIgnored))
        }
        json.addRaw("beacons", json: JSONLine.array(monitor.presence.inRange(at: now).prefix(16).map { entry in
            var b = JSONLine()
            b.add("beacon", entry.identity.spec)
            b.add("rssi_dbm", entry.smoothedRSSIDBm, decimals: 1)
            b.add("driver", entry.driver.flatMap { monitor.directory.name(of: $0) })
            return b.string
        }))
        json.add("session_state", monitor.machine.state.rawValue)
        json.add("driver", monitor.machine.driver.flatMap { monitor.directory.name(of: $0) })
        if let trip = monitor.currentTrip { json.add("session_km", trip.distance.kilometers, decimals: 3) }
        json.add("fuel_scale", monitor.fuelCalibrationFactor, decimals: 4)
        json.add("untracked_policy", vehicle.untrackedPolicy.rawValue)
        if let waiting = monitor.continuationCandidate {
            json.add("continuation_driver", monitor.directory.name(of: waiting.driver))
            json.add("continuation_after", waiting.origin.rawValue)
        }
        json.add("sessions_resumed", recorder.sessionsResumed)
        var info = stat()
        json.add("store_bytes", stat(options.storePath, &info) == 0 ? Int64(info.st_size) : nil)
        json.add("trip_points_written", recorder.pointsWritten)
        json.add("store_refusing_writes", recorder.storeRefusing)
        json.add("store_pending_records", recorder.pendingRecordCount)
        json.addRaw("store_lost", json: (lostBefore + recorder.losses).jsonObject)
        json.add("store_lost_unsaved", recorder.unsavedLosses.recordsThatMatter + recorder.unsavedLosses.tripPoints + recorder.unsavedLosses.events)
        return json.string
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
