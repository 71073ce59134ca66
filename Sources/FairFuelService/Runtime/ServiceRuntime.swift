import FairFuelConfiguration
import FairFuelCore
import FairFuelDomain
import FairFuelEdges
import FairFuelLink
import FairFuelParsers
import FairFuelServiceCore
import FairFuelStore

/// The shell around `ServiceCore`: one poll loop (no busy loop: an idle dongle sleeps in
/// poll) over the MCU's port, gpsd, the control socket and the signals; it reads, hands each
/// event to the core with the host's time, and performs the core's actions (writes to the
/// MCU, the store, answers). Everything the service decides is in the core.
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
        /// systemd's `$CREDENTIALS_DIRECTORY`, where `[uplink] credentials` names a file.
        public var credentialsDirectory: String?
        /// The single-instance lock the daemon took on the store; it moves to the file written
        /// back after a deletion. Nil: no lock (tests, replays).
        public var instanceLock: InstanceLock?

        public init(board: BoardProfile, storePath: String? = nil, port: String? = nil, controlSocketPath: String? = nil,
                    catalog: MCUBoardCatalog = .builtIn, logger: Logger, notifier: SystemdNotifier = SystemdNotifier(environment: [:]),
                    credentialsDirectory: String? = nil, instanceLock: InstanceLock? = nil) {
            self.board = board
            self.storePath = storePath ?? board.store.path
            self.port = port ?? board.link.port
            baud = board.link.baud
            self.controlSocketPath = controlSocketPath ?? board.control.socketPath
            self.catalog = catalog
            self.logger = logger
            self.notifier = notifier
            self.credentialsDirectory = credentialsDirectory
            self.instanceLock = instanceLock
        }
    }

    public let options: Options
    var logger: Logger { options.logger }
    /// The host's clock: the time every event is handed over with.
    let clock = MonotonicClock()
    /// Everything the service decides.
    public let core: ServiceCore
    let store: TripStore
    /// What happened to the store file that `status` should say (`store_note`): a start on a
    /// full disk, a deleted file written back; nil when nothing did.
    private var storeNote: String?
    /// The store file is gone or replaced and could not be written back yet (logged once).
    private var storeFileMissing = false
    /// Writes the domain's output into the store (sessions at once, trip points in batches).
    private let recorder: SessionRecorder
    /// gpsd as the GNSS source, when the board profile says `gnss.source = gpsd`.
    private var gpsd: GPSDClient?
    private var lastWatchdog = LinkMilliseconds(0)
    private var ring: ByteRing
    private var scratch: [UInt8]
    var connection: SerialConnection?
    var control: ControlSocketServer?
    /// The MQTT uplink, when the board profile has an `[uplink]` table.
    private var uplink: UplinkPublisher?
    private var stopRequested = false
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
        let opened = try TripStore.openCheckingIntegrity(
            path: options.storePath, configuration: configuration, wallClockUTCMs: WallClock.utcMilliseconds())
        store = opened.store
        if opened.report.readOnlyFileSystem {
            storeNote = Self.readOnlyNote
        } else if opened.report.diskFull {
            storeNote = opened.report.walIndexInMemory
                ? "started on a full disk: records wait in memory; other commands cannot read the store until there is room"
                : "started on a full disk: records wait in memory until there is room"
        }
        // With an uplink, every finished trip, refuel, split and correction queues its message with the record.
        store.uplink = options.board.uplink?.outbox
        // Retention once at start-up (without a trusted time: the disk budget only), then hourly.
        if let report = try? store.enforceRetention(nowUTCMs: nil) { logger.debug("retention at start-up: \(report)") }
        // On a full disk the run's row waits with the records: the recorder writes it first when there is room.
        let assembly = try ServiceAssembly(
            board: options.board, store: store, catalog: options.catalog, port: options.port, logger: logger
        ) { store in try Self.beginRun(in: store, options: options) }
        core = assembly.core
        recorder = assembly.recorder
        let resumable = assembly.resumed
        let directory = core.directory
        // Says at once, in the log and in `status`, that the store refuses writes.
        if recorder.run == nil { recorder.flush() }
        lostBefore = (try? store.losses()) ?? StoreLosses()
        ring = ByteRing(capacity: options.board.link.receiveRingBytes)
        scratch = [UInt8](repeating: 0, count: options.board.link.receiveRingBytes)
        if options.board.gnss.source == .gpsd {
            gpsd = GPSDClient(
                host: options.board.gnss.gpsdHost, port: options.board.gnss.gpsdPort,
                backoffMinimumMs: Int64(options.board.link.reconnectBackoffMinMs),
                backoffMaximumMs: Int64(options.board.link.reconnectBackoffMaxMs))
        }
        if let settings = options.board.uplink {
            uplink = try UplinkPublisher(
                settings: settings, store: store, logger: logger, credentialsDirectory: options.credentialsDirectory)
            uplink?.commandApplied = { [unowned self] in reloadProvisioning() }
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
                    path: path, mode: UInt32(options.board.control.socketMode), group: options.board.control.group,
                    maximumClients: options.board.control.maxClients)
            } catch {
                // Another live service answers there: two services must not share a socket.
                if error.inUseByPID != nil || error.isAddressInUse { throw error }
                logger.warning("\(error); running without a control socket")
            }
        }
    }

    /// This run's row in the store; nil when a full disk or a read-only file system refuses it
    /// (the recorder writes it later).
    private static func beginRun(in store: TripStore, options: Options) throws(StoreError) -> Int64? {
        do {
            return try store.beginRun(note: "service")
        } catch {
            guard error.isStoreUnwritable else { throw error }
            options.logger.error("\(error): running with records held in memory "
                + "(at most \(options.board.store.pendingRecordsMax)) until the store can be written")
            return nil
        }
    }

    /// `store_note` while the store's file system is read-only.
    static let readOnlyNote = "the store's file system is read-only: records wait in memory until it is writable again (tried every second)"

    /// Why the store refuses writes, for the shutdown line: a read-only file system or a full disk.
    private var unwritableReason: String {
        store.refusedForReadOnlyFileSystem || store.isOnReadOnlyFileSystem ? "its file system is read-only" : "the disk is full"
    }

    /// Runs until `requestStop` (or `shouldStop`) says so; `extraDescriptors` are polled too
    /// (a signal fd) and `onReadable` is called when one is readable.
    public func runLoop(extraDescriptors: [Int32] = [], onReadable: (Int32) -> Void = { _ in }, shouldStop: () -> Bool = { false }) {
        logger.info("service started: store \(options.storePath), MCU port \(options.port)")
        try? options.notifier.ready(status: "waiting for the MCU on \(options.port)")
        var pollSet = PollSet()
        uplink?.start(nowMs: clock.now.value)
        while !stopRequested && !shouldStop() {
            let now = clock.now
            if core.wantsLink(at: now) { connect(at: now) }
            if let event = gpsd?.reconnectIfDue() { log(gpsd: event) }

            pollSet.removeAll()
            if let connection { pollSet.add(connection.fileDescriptor) }
            for fd in extraDescriptors { pollSet.add(fd) }
            let gpsdDescriptor = gpsd?.fileDescriptor
            if let gpsdDescriptor { pollSet.add(gpsdDescriptor) }
            for fd in control?.pollDescriptors ?? [] { pollSet.add(fd) }
            let uplinkRequest = uplink?.pollRequest
            if let uplinkRequest { pollSet.add(uplinkRequest.descriptor, writable: uplinkRequest.writable) }
            var timeout = core.millisecondsUntilWork(at: now)
            if let untilGPSD = gpsd?.millisecondsUntilReconnect() { timeout = min(timeout, untilGPSD) }
            if let untilUplink = uplink?.millisecondsUntilWork(nowMs: now.value) { timeout = min(timeout, untilUplink) }
            pollSet.wait(timeoutMs: timeout)

            let after = clock.now
            if connection != nil { readLink(at: after) }
            if let gpsdDescriptor, pollSet.isReady(gpsdDescriptor) { readGPSD(at: after) }
            for fd in extraDescriptors where pollSet.isReady(fd) { onReadable(fd) }
            if let interval = options.notifier.watchdogPingIntervalMs, after.value - lastWatchdog.value >= interval {
                lastWatchdog = after
                try? options.notifier.watchdog()
            }
            serviceControl(at: after)
            core.timePassed(at: after) { perform($0) }
            if let uplink {
                let readiness = uplinkRequest.map { pollSet.readiness(of: $0.descriptor) } ?? .none
                uplink.service(readiness: readiness, nowMs: clock.now.value)
            }
        }
        shutdown()
    }

    /// Asks the loop to stop after the current iteration (SIGTERM).
    public func requestStop() { stopRequested = true }

    /// Sessions started and ended since start-up (read on the loop's thread, e.g. in `shouldStop`).
    public var sessionCounts: (started: Int, ended: Int) { (recorder.sessionsStarted, recorder.sessionsEnded) }

    /// The receiver's counters since start-up, across reconnections.
    public var linkCounters: LinkCounters { core.linkCounters }

    /// MCU reboots the link clock has seen (its uptime restarting).
    public var mcuReboots: Int { core.mcuReboots }

    /// Domain time now (the MCU's clock, extrapolated since its last frame).
    public var linkTime: LinkMilliseconds { core.linkTime(at: clock.now) }

    /// FEEDBACK the domain asked the MCU to play, the latest 64.
    public var feedbackSent: [FeedbackSignal] { core.feedbackSent }

    /// Re-reads what the family and technicians change from the store (SIGHUP, the control
    /// socket's `reload`, which every CLI command that changes them sends): the drivers and
    /// their tags and beacons, the vehicle profile and the fuel calibration after a full refuel.
    public func reloadProvisioning() {
        try? options.notifier.reloading()
        uplink?.recordsQueued()
        core.reloadProvisioning(at: clock.now) { perform($0) }
        try? options.notifier.ready(status: connection == nil ? "MCU link down" : "running")
    }

    private func shutdown() {
        try? options.notifier.stopping()
        core.finish(at: clock.now) { perform($0) }
        let (lost, saved) = recorder.finish()
        shutdownLosses = lost
        uplink?.stop()
        connection?.close()
        connection = nil
        if lost.isEmpty {
            logger.info("service stopped: \(recorder.pointsWritten) trip points written, store flushed")
        } else {
            // Never "flushed" when something was not kept: say exactly what, and whether it is counted in the store.
            logger.error("service stopped: \(recorder.pointsWritten) trip points written; the store could not keep \(lost)"
                + (saved ? " (counted in the store: fairfuel status)" : "; the store could not even count this: \(unwritableReason)"))
        }
    }

    // MARK: Actions

    private func perform(_ action: ServiceAction) {
        // The store's side first, as every shell does it (`ServiceAssembly.performOnStore`).
        if case .retryStoreWrites = action { checkStoreFile() }
        if case .provisioningChanged = action {
            // The CLI asks for a reload after a refuel or a correction, which it may have queued messages for.
            uplink?.recordsQueued()
        }
        if ServiceAssembly.performOnStore(action, core: core, recorder: recorder, store: store, logger: logger) {
            if case .provisioningChanged = action { uplink?.figuresChanged() }
            return
        }
        switch action {
        case let .send(wire):
            write(wire)
        case let .driverChanged(name):
            uplink?.driverChanged(name)
        case .recordsQueued:
            uplink?.recordsQueued()
            uplink?.figuresChanged()
        case let .complete(client, answer):
            _ = control?.complete(ControlTicket(rawValue: client.rawValue), with: answer)
        case let .status(text):
            try? options.notifier.status(text)
        case .reopenLink:
            // The MCU fell silent on an open port: close it; the loop reopens it when the core wants it.
            connection?.close()
            connection = nil
        case .record, .recordLinkErrors, .retryStoreWrites, .enforceRetention, .provisioningChanged:
            break  // performed on the store above
        }
    }

    /// Every second: the store file deleted or replaced under the service is written back from
    /// the open connection; a store opened on a full disk shares its WAL index again once there is room.
    private func checkStoreFile() {
        guard followReadOnlyFileSystem() else { return }
        let lock = options.instanceLock
        // The lock moves to the copy before it takes the store's path: no moment when a second service could take it.
        let check = store.checkFileInPlace(wallClockUTCMs: WallClock.utcMilliseconds()) { copy in lock?.lockStoreReplacement(at: copy) ?? true }
        // SQLite has closed the deleted file once it is restored: the lock's old descriptor can go.
        if case .restored = check { lock?.closeRetiredStoreDescriptor() }
        switch check {
        case .inPlace:
            break
        case let .restored(movedTo):
            storeFileMissing = false
            storeNote = "the store file was deleted while the service ran; written back from the open connection"
                + (movedTo.map { " (the file found in its place was moved to \($0))" } ?? "")
        case let .notRestored(reason):
            if !storeFileMissing {
                logger.error("the store file \(options.storePath) was deleted or replaced while the service ran: \(reason); retrying every second")
            }
            storeFileMissing = true
            storeNote = "the store file was deleted or replaced while the service ran and could not be written back yet: \(reason)"
        }
        if store.walIndexIsPrivate, store.hasRoomToShareIndex {
            do {
                try store.reopen()
                logger.notice("there is room on the disk again: the store is open to other commands again")
            } catch {
                logger.debug("cannot reopen the store with a shared index yet: \(error)")
            }
        }
    }

    /// Every second: says once, in the journal and in `status`, that the store's file system went
    /// read-only; opens a store that waited on one for writing once it is writable again (the
    /// recorder then writes what it holds). False while the store waits, so that the file is not
    /// taken for deleted or replaced meanwhile.
    private func followReadOnlyFileSystem() -> Bool {
        if store.waitsForWritableFileSystem {
            do {
                guard try store.reopenWritable() else { return false }
                storeNote = nil
                logger.notice("the file system holding \(options.storePath) is writable again: the store is open for writing; "
                    + "writing the \(recorder.pendingRecordCount) record(s) held")
            } catch {
                logger.debug("cannot open the store for writing yet: \(error)")
                return false
            }
            return true
        }
        let readOnly = recorder.storeRefusing && (store.refusedForReadOnlyFileSystem || store.isOnReadOnlyFileSystem)
        if readOnly && storeNote != Self.readOnlyNote {
            storeNote = Self.readOnlyNote
            logger.error("the file system holding \(options.storePath) went read-only: holding the records in memory "
                + "(at most \(options.board.store.pendingRecordsMax)) until it is writable again")
        } else if !readOnly && storeNote == Self.readOnlyNote {
            storeNote = nil
        }
        return true
    }

    private func write(_ wire: [UInt8]) {
        do {
            try connection?.write(wire)
        } catch {
            logger.warning("cannot write to the MCU: \(error)")
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
            ring.removeAll()
            core.linkOpened(opener: connection.opener.rawValue, message: opened ?? "opened \(options.port)", at: now) { perform($0) }
        } catch {
            core.linkOpenFailed("\(error)", at: now)
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
            connection.close()
            self.connection = nil
            core.linkLost("\(error)", at: now)
        }
    }

    private func drainRing(at now: LinkMilliseconds) {
        ring.drain { chunk in core.received(chunk, at: now) { perform($0) } }
    }

    // MARK: gpsd

    private func readGPSD(at now: LinkMilliseconds) {
        guard let gpsd else { return }
        let event = gpsd.readAvailable { fix in core.gnssFix(fix, at: now) { perform($0) } }
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

    // MARK: Control socket

    private func serviceControl(at now: LinkMilliseconds) {
        guard let control else { return }
        control.service(nowMs: now.value) { request in
            if request.split(separator: " ").first == "status" { return statusJSON() + "\n" }
            let client = ControlRequestID(rawValue: control.currentTicket.rawValue)
            switch core.control(request, from: client, at: now, { perform($0) }) {
            case let .now(answer): return answer
            case .later: return ControlSocketServer.deferred
            }
        }
        for ticket in control.takeHungUp() {
            core.clientGone(ControlRequestID(rawValue: ticket.rawValue), at: now) { perform($0) }
        }
    }

    /// Link state, firmware, frame counters, GNSS, beacons in range, session and store size.
    public func statusJSON() -> String {
        let sizes = TripStore.fileSizes(at: options.storePath)
        let unsaved = recorder.unsavedLosses
        let shell = ShellStatus(
            storeBytes: sizes.database.map { $0 + sizes.wal + sizes.sharedMemory }, storeDatabaseBytes: sizes.database,
            storeWALBytes: sizes.wal, storeReserveBytes: sizes.reserve, sessionsResumed: recorder.sessionsResumed,
            tripPointsWritten: recorder.pointsWritten, storeRefusingWrites: recorder.storeRefusing,
            storePendingRecords: recorder.pendingRecordCount, storeLost: lostBefore + recorder.losses,
            storeLostUnsaved: unsaved.recordsThatMatter + unsaved.tripPoints + unsaved.events,
            gpsd: gpsd.map { ($0.isConnected, Int($0.counters.fixes)) }, tankLiters: (try? store.estimatedTankLiters()) ?? nil,
            storeNote: storeNote, uplinkJSON: uplink?.statusJSON())
        return core.status(at: clock.now).json(shell: shell)
    }
}
