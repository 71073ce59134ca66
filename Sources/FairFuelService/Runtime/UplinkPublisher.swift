import FairFuelConfiguration
import FairFuelCore
import FairFuelDomain
import FairFuelEdges
import FairFuelServiceCore
import FairFuelStore

/// The MQTT uplink inside the service's poll loop: an `MQTTClient` fed from the loop (its socket
/// in the poll set, no thread) publishing the store's outbox in order with QoS 1, each message
/// marked sent only on its PUBACK. What to publish and when is `UplinkCore`'s; this shell reads
/// the outbox, publishes and marks messages sent as it says.
///
/// A refusal or an unreadable file is logged once per kind of failure, and `statusJSON` shows
/// it; recording never depends on the uplink.
final class UplinkPublisher {
    let settings: BoardProfile.Uplink
    private let store: TripStore
    private let logger: Logger
    let statusTopic: String
    private(set) var client: MQTTClient?
    /// Why there is no client (an unreadable credentials or certificate file, no libmosquitto).
    private(set) var setupError: String?
    /// The rate limit, the in-flight window and what a PUBACK or a disconnect means.
    private(set) var core: UplinkCore
    /// The vehicle's time zone as last read (name, rules): read again only when the name changes.
    private var zoneCache: (name: String, rules: TimeZoneRules)?
    /// Home Assistant's discovery; nil when `homeassistant_prefix` is empty.
    let homeAssistant: HomeAssistantDiscovery?
    /// The driver of the open session, by name; nil: none.
    private var currentDriver: String?
    /// The drivers whose sensors were announced on this connection (a removed one's configs are cleared).
    private var announcedDrivers: [DriverDirectory.Driver] = []
    /// Commands down from the hub on `<prefix>/<vehicle>/command`.
    let commands: FleetCommandReceiver
    /// Runs after a command changed the store (the runtime re-reads it, as after the CLI's `reload`).
    var commandApplied: () -> Void = {}

    init(settings: BoardProfile.Uplink, store: TripStore, logger: Logger, credentialsDirectory: String?) throws(StoreError) {
        self.settings = settings
        self.store = store
        self.logger = logger
        let vehicle = try store.vehicleUplinkID()
        statusTopic = settings.statusTopic(vehicleID: vehicle)
        homeAssistant = settings.homeAssistantPrefix.isEmpty ? nil : HomeAssistantDiscovery(settings: settings, vehicleID: vehicle)
        core = UplinkCore(publishPerSecond: settings.publishPerSecond)
        commands = FleetCommandReceiver(topicPrefix: settings.topicPrefix, vehicleID: vehicle, store: store, logger: logger)
        do throws(MQTTClientError) {
            var credentials: MQTTCredentials?
            if let name = settings.credentials {
                guard let directory = credentialsDirectory, !directory.isEmpty else {
                    throw .missingFile(role: "credentials file (uplink.credentials = \"\(name)\", but $CREDENTIALS_DIRECTORY is not set: systemd LoadCredential=)", path: name)
                }
                credentials = try MQTTCredentials.load(path: directory + "/" + name)
            }
            var configuration = settings.clientConfiguration(vehicleID: vehicle, credentials: credentials)
            // A persistent session: the broker keeps the command subscription and queues commands while the car is away.
            configuration.cleanSession = false
            client = try MQTTClient(configuration: configuration)
        } catch {
            setupError = error.description
            logger.error("uplink to \(settings.url) is off: \(error); trips, refuels and splits wait in the outbox")
        }
        client?.setHandlers(MQTTClient.Handlers(
            connected: { [unowned self] in connected() },
            acknowledged: { [unowned self] id, reason in acknowledged(messageID: id, reasonCode: reason) },
            disconnected: { [unowned self] error, abandoned in disconnected(error: error, abandoned: abandoned) },
            received: { [unowned self] topic, payload, _ in received(topic: topic, payload: payload) }))
    }

    func start(nowMs: Int64) {
        core.start(nowMs: nowMs)
        client?.start(nowMs: nowMs)
    }

    /// Publishes `offline` (the broker keeps it retained) and disconnects, so that the last will
    /// is not needed on a clean stop.
    func stop() {
        guard let client else { return }
        if client.state == .connected {
            _ = try? client.publish(topic: statusTopic, payload: Array("offline".utf8), retained: true)
        }
        client.stop()
    }

    /// Records were written (a trip closed, the CLI asked for a reload after a refuel): read the outbox at the next pump.
    func recordsQueued() { core.recordsQueued() }

    // MARK: Poll loop

    /// The descriptor to add to the poll set, and whether to wait for it to be writable too.
    var pollRequest: (descriptor: Int32, writable: Bool)? {
        guard let client, let descriptor = client.descriptor else { return nil }
        return (descriptor, client.wantsWrite)
    }

    /// How long the loop may sleep before `service` is due.
    func millisecondsUntilWork(nowMs: Int64) -> Int64? {
        guard let client, let due = client.nextServiceMs(nowMs: nowMs) else { return nil }
        var wait = due - nowMs
        if client.state == .connected, let untilToken = core.millisecondsUntilToken() { wait = min(wait, untilToken) }
        return max(0, wait)
    }

    /// Reads, writes and keeps the connection alive as the poll reported; publishes what is due.
    func service(readiness: PollReadiness, nowMs: Int64) {
        guard let client else { return }
        client.service(readable: readiness.readable, writable: readiness.writable, nowMs: nowMs)
        pump(nowMs: nowMs)
        // What pump queued goes out now rather than after the next poll.
        if client.state == .connected && client.wantsWrite { client.service(readable: false, writable: true, nowMs: nowMs) }
    }

    /// Publishes pending outbox messages after the last one published, within the rate limit and the in-flight window.
    private func pump(nowMs: Int64) {
        guard let client, client.state == .connected, let read = core.outboxRead(nowMs: nowMs) else { return }
        let messages: [OutboxMessage]
        do {
            messages = try store.pendingOutboxMessages(after: read.after, limit: read.limit)
        } catch {
            logger.warning("uplink: cannot read the outbox: \(error)")
            return
        }
        for message in messages.prefix(core.outboxFound(messages.count, nowMs: nowMs)) {
            do {
                let messageID = try client.publish(topic: message.topic, payload: message.payload, retained: message.retained)
                core.published(message.id, as: messageID)
            } catch {
                logger.warning("uplink: cannot publish outbox message \(message.id): \(error)")
                return
            }
        }
    }

    // MARK: Client events

    private func connected() {
        core.connected()
        logger.notice("uplink connected to \(settings.url) as \(client?.configuration.clientID ?? "?")")
        _ = try? client?.publish(topic: statusTopic, payload: Array("online".utf8), retained: true)
        do { try client?.subscribe(commands.commandTopic) } catch { logger.warning("uplink: cannot subscribe to \(commands.commandTopic): \(error)") }
        announcedDrivers = []
        publishHomeAssistant()
    }

    /// A command from the hub: applied (or refused) and answered on `…/command/result`.
    private func received(topic: String, payload: [UInt8]) {
        guard topic == commands.commandTopic else { return }
        let answer = commands.receive(payload, utcMs: WallClock.utcMilliseconds())
        do { _ = try client?.publish(topic: commands.resultTopic, payload: answer.result, retained: false) } catch {
            logger.warning("uplink: cannot publish a command's result: \(error)")
        }
        if answer.changed {
            recordsQueued()
            commandApplied()
        }
    }

    private func acknowledged(messageID: Int32, reasonCode: Int32) {
        switch core.acknowledge(messageID: messageID, reasonCode: reasonCode) {
        case nil:
            return  // the status message, Home Assistant's
        case let .refused(outboxID, reasonCode):
            logger.warning("uplink: the broker refused outbox message \(outboxID) (reason code \(reasonCode)); it stays in the outbox")
        case let .delivered(outboxID):
            markSent(outboxID)
        }
    }

    private func markSent(_ outboxID: OutboxMessageID) {
        do {
            try store.markOutboxMessageSent(outboxID)
        } catch {
            // Not marked: it goes again after the next reconnect, a duplicate with the same message_id.
            logger.warning("uplink: cannot mark outbox message \(outboxID) sent: \(error)")
        }
    }

    private func disconnected(error: MQTTClientError, abandoned: Int) {
        let failure = error.description
        if core.disconnected(failure: failure) {
            let retry = client.flatMap { if case let .waiting(at) = $0.state { at } else { nil } }
            logger.warning("uplink to \(settings.url): \(failure)" + (abandoned > 0 ? "; \(abandoned) message(s) without PUBACK go again" : "")
                + (retry != nil ? "; retrying with backoff" : ""))
        }
    }

    // MARK: Home Assistant

    /// A session started (`driver` its driver's name) or ended (nil): the current-driver state.
    func driverChanged(_ driver: String?) {
        currentDriver = driver
        // Not connected: the next CONNACK publishes it with the rest.
        guard let homeAssistant, client?.state == .connected else { return }
        publish(homeAssistant.driverState(driver))
    }

    /// A trip finished, a refuel or a correction was entered, drivers were provisioned: the
    /// configs (when the drivers changed) and the tank, month and position states again.
    func figuresChanged() { publishHomeAssistant() }

    /// Configs for drivers not yet announced on this connection, then every state.
    private func publishHomeAssistant() {
        guard let homeAssistant, let client, client.state == .connected else { return }
        do {
            let vehicle = try store.vehicle()
            let drivers = try store.directory().drivers
            if drivers != announcedDrivers {
                let gone = announcedDrivers.filter { old in !drivers.contains { $0.id == old.id } }
                for message in homeAssistant.removals(of: gone) + homeAssistant.configs(vehicle: vehicle, drivers: drivers) {
                    publish(message)
                }
                announcedDrivers = drivers
            }
            publish(homeAssistant.driverState(currentDriver))
            publish(homeAssistant.tankState(liters: try store.estimatedTankLiters(), vehicle: vehicle))
            // "This month" is the family's calendar month, as `fairfuel summary --month` has it.
            let zone = timeZone(of: vehicle)
            let month = CalendarMonth(utcMs: WallClock.utcMilliseconds(), in: zone)
            for figures in try Self.monthFigures(month, in: zone, drivers: drivers, vehicle: vehicle, store: store) {
                publish(homeAssistant.monthState(figures, month: month, vehicle: vehicle))
            }
            if settings.positions != .none, let position = try lastPosition() {
                publish(homeAssistant.positionState(latitude: position.latitude, longitude: position.longitude))
            }
        } catch {
            logger.warning("uplink: cannot read the store for Home Assistant: \(error)")
        }
    }

    /// The vehicle's time zone, read from the zone files once per name; UTC (said once in the log)
    /// when it cannot be read.
    private func timeZone(of vehicle: VehicleProfile) -> TimeZoneRules {
        guard vehicle.timeZone != TimeZoneRules.utc.name else { return .utc }
        if let cached = zoneCache, cached.name == vehicle.timeZone { return cached.rules }
        var rules = TimeZoneRules.utc
        do { rules = try TimeZoneDatabase.load(vehicle.timeZone) } catch {
            logger.warning("uplink: \(error); Home Assistant's month is UTC's")
        }
        zoneCache = (vehicle.timeZone, rules)
        return rules
    }

    /// What `fairfuel summary --month` shows per driver: the estimated fuel of the trips that
    /// started in `month` (a calendar month of `zone`), and their shares of the bills of its
    /// refuels in the vehicle's currency.
    static func monthFigures(
        _ month: CalendarMonth, in zone: TimeZoneRules, drivers: [DriverDirectory.Driver], vehicle: VehicleProfile, store: TripStore
    ) throws(StoreError) -> [HomeAssistantDiscovery.DriverMonth] {
        let sessions = try store.sessions(sinceUTCMs: month.startUTCMs(in: zone), untilUTCMs: month.next.startUTCMs(in: zone))
        let shares = try store.splits().filter { split in
            month.contains(utcMs: split.refuel.atUTCMs, in: zone) && (split.refuel.currency ?? vehicle.currency) == vehicle.currency
        }.flatMap(\.shares).filter { !$0.beforeTracking }
        return drivers.map { driver in
            HomeAssistantDiscovery.DriverMonth(
                driver: driver,
                fuelLiters: sessions.filter { $0.driver == driver.id }.reduce(0) { $0 + $1.fuelLiters },
                costMinorUnits: shares.filter { $0.driver == driver.id }.reduce(Int64(0)) { $0 + $1.cost.value })
        }
    }

    /// The last position the store keeps of the latest session that has one (positions inside sessions only).
    private func lastPosition() throws(StoreError) -> StoredTripPoint? {
        for session in try store.sessions().reversed().prefix(Self.sessionsSearchedForAPosition) {
            if let point = try store.tripPoints(session: session.id).last { return point }
        }
        return nil
    }

    /// Sessions looked at, latest first, for a last position (a car without GNSS has none).
    static let sessionsSearchedForAPosition = 8

    /// A retained QoS 1 message outside the outbox: it is built again from the store on every connect.
    private func publish(_ message: HomeAssistantDiscovery.Message) {
        do {
            _ = try client?.publish(topic: message.topic, payload: Array(message.payload.utf8), retained: true)
        } catch {
            logger.warning("uplink: cannot publish \(message.topic): \(error)")
        }
    }


    // MARK: Status

    /// `"uplink"` of `status`: the connection's state and the outbox.
    func statusJSON() -> String {
        var json = JSONLine()
        json.add("url", settings.url)
        json.add("topic", statusTopic.dropLast("/status".count).description)
        if let setupError {
            json.add("state", "off")
            json.add("error", setupError)
        } else if let client {
            let state = switch client.state {
            case .stopped: "stopped"
            case .connecting: "connecting"
            case .connected: "connected"
            case .waiting: "waiting"
            }
            json.add("state", state)
            json.add("error", client.lastError?.description)
            json.add("connects", Int(client.counters.connects))
            json.add("inflight", core.inflightCount)
        }
        json.add("acknowledged", Int(core.acknowledged))
        json.add("rejected", Int(core.rejected))
        var commandCounts = JSONLine()
        commandCounts.add("applied", commands.applied)
        commandCounts.add("refused", commands.refused)
        commandCounts.add("already_applied", commands.duplicates)
        json.addRaw("commands", json: commandCounts.string)
        if let statistics = try? store.outboxStatistics() {
            json.add("pending", statistics.pendingMessages)
            json.add("pending_bytes", statistics.pendingBytes)
            json.add("sent", statistics.sentMessages)
            json.add("dropped", statistics.droppedMessages)
            json.add("dropped_bytes", statistics.droppedBytes)
        }
        return json.string
    }
}
