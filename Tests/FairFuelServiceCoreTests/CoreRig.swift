import FairFuelCore
import FairFuelDomain
import FairFuelLink
import FairFuelParsers
import FairFuelServiceCore
@testable import FairFuelSimulation
import TestSupport

/// The service core and the virtual MCU's core in lock-step on simulated time: no pseudo-
/// terminal, no thread, no clock. Host time is simulated time; every byte the MCU emits is
/// handed to the service core at the time it was emitted, every byte the core sends reaches
/// the MCU at once. A scenario plays as fast as the two cores run.
struct CoreRig {
    let plan: SimPlan
    var mcu: VirtualMCUCore
    let core: ServiceCore
    let records: MemoryProvisioningRecords
    /// Everything the core asked the shell to store, in order.
    var stored: [DomainOutput] = []
    var sentFrames = 0
    var retentionPasses = 0
    var deferredAnswers: [(ControlRequestID, String)] = []
    var log: LogCapture
    private var toMCU: [[UInt8]] = []
    private var fromMCU: [VirtualMCUCore.Output] = []
    private(set) var now: Int64 = 0
    /// The virtual MCU's cable is in (false between a scripted unplug and its replug).
    private var mcuPlugged = true
    /// Rig time at which the current MCU's simulated time began (a replacement MCU starts later).
    private var mcuOriginMs: Int64 = 0
    /// The MCU was killed: it sends nothing until `replaceMCU`.
    private var mcuDead = false
    /// A lossy line between the MCU and the service: a frame for which this returns true never
    /// reaches the core (a UART overrun, a proxy dropping frames).
    var dropsFrame: ((Frame) -> Bool)?
    /// Frames `dropsFrame` dropped.
    private(set) var droppedFrames = 0
    /// The other way: a host frame for which this returns true never reaches the MCU.
    var dropsHostFrame: ((Frame) -> Bool)?
    private(set) var droppedHostFrames = 0

    init(scenario path: String, settings: ServiceCoreSettings = ServiceCoreSettings(port: "virtual"), logLevel: LogLevel = .info) throws {
        plan = try ScenarioFiles.plan(path: path)
        mcu = VirtualMCUCore(plan: plan)
        records = MemoryProvisioningRecords(directory: try Self.directory(for: plan), vehicle: .familyCar)
        log = LogCapture(minimumLevel: logLevel)
        core = try ServiceCore(settings: settings, records: records, logger: log.logger)
        core.linkOpened(opener: "virtual", message: "virtual MCU attached", at: LinkMilliseconds(0)) { perform($0) }
        exchange()
    }

    /// The drivers as a technician provisions them for the scenario: tag UID, URI tag, beacon.
    static func directory(for plan: SimPlan) throws -> DriverDirectory {
        var directory = DriverDirectory()
        for (index, driver) in plan.scenario.drivers.enumerated() {
            let id = DriverID(Int64(index + 1))
            directory.addDriver(.init(id: id, name: driver.name))
            if let tag = plan.tag(ofDriver: driver.name) { directory.bind(tag: .uid(try TagUID(bytes: tag.uid[...])), to: id) }
            if let uri = driver.driverURI { directory.bind(tag: .driver(uri.driverID), to: id) }
            if let beacon = driver.beacon { directory.bind(beacon: beacon, to: id) }
        }
        return directory
    }

    /// Plays until simulated `endMs`: every MCU event at its own time, the core's time passing at
    /// least once a second (its tick), as the shell's poll loop would.
    mutating func run(until endMs: Int64) {
        var lastPassed = now
        while now < endMs {
            let next = min(mcuDead ? endMs : mcu.nextEventTime + mcuOriginMs, lastPassed + 1_000, endMs)
            now = max(now, next)
            if !mcuDead { mcu.advance(to: now - mcuOriginMs, into: &fromMCU) }
            exchange()
            if now - lastPassed >= 1_000 || now == endMs {
                lastPassed = now
                core.timePassed(at: LinkMilliseconds(now)) { perform($0) }
                exchange()
            }
            // The shell reopens a port the core closed for silence once its backoff has passed.
            if mcuPlugged && core.wantsLink(at: LinkMilliseconds(now)) {
                core.linkOpened(opener: "virtual", message: "virtual MCU reopened", at: LinkMilliseconds(now)) { perform($0) }
                exchange()
            }
        }
    }

    /// The MCU dies (`kill -9` of a virtual MCU): nothing more comes from it, the link stays open.
    mutating func killMCU() {
        mcuDead = true
        fromMCU.removeAll()
    }

    /// Another MCU, playing `path`'s scenario from its start, comes up on the same link now.
    mutating func replaceMCU(scenario path: String) throws {
        mcu = VirtualMCUCore(plan: try ScenarioFiles.plan(path: path))
        mcuOriginMs = now
        mcuDead = false
    }

    /// The service stops: what the domain holds is flushed.
    mutating func finish() {
        core.finish(at: LinkMilliseconds(now)) { perform($0) }
    }

    /// A control request, answered now or later (through `deferredAnswers`).
    mutating func control(_ request: String, client: UInt64 = 1) -> ControlAnswer {
        let answer = core.control(request, from: ControlRequestID(rawValue: client), at: LinkMilliseconds(now)) { perform($0) }
        exchange()
        return answer
    }

    /// Hands bytes both ways until neither side has more.
    private mutating func exchange() {
        while !fromMCU.isEmpty || !toMCU.isEmpty {
            let outputs = fromMCU
            fromMCU.removeAll(keepingCapacity: true)
            for output in outputs {
                switch output {
                case let .bytes(bytes, _):
                    if let dropsFrame, Self.frames(in: bytes).contains(where: dropsFrame) {
                        droppedFrames += 1
                        continue
                    }
                    core.received(bytes[...], at: LinkMilliseconds(now)) { perform($0) }
                case .unplug:
                    mcuPlugged = false
                    core.linkLost("the virtual MCU was unplugged", at: LinkMilliseconds(now))
                case .replug:
                    mcuPlugged = true
                    core.linkOpened(opener: "virtual", message: "virtual MCU plugged in again", at: LinkMilliseconds(now)) { perform($0) }
                }
            }
            let wires = toMCU
            toMCU.removeAll(keepingCapacity: true)
            for wire in wires where !mcuDead {
                if let dropsHostFrame, Self.frames(in: wire, from: .host).contains(where: dropsHostFrame) {
                    droppedHostFrames += 1
                    continue
                }
                mcu.receive(wire[...], at: now - mcuOriginMs, into: &fromMCU)
            }
        }
    }

    /// The frames in one output of the MCU, decoded apart from the core's stream.
    private static func frames(in bytes: [UInt8], from sender: LinkSide = .mcu) -> [Frame] {
        var decoder = FrameDecoder(sender: sender)
        var frames: [Frame] = []
        decoder.decode(bytes[...]) { output in
            if case let .frame(frame) = output { frames.append(frame) }
        }
        return frames
    }

    private mutating func perform(_ action: ServiceAction) {
        switch action {
        case let .send(wire):
            sentFrames += 1
            if core.linkIsUp { toMCU.append(wire) }
        case let .record(output): stored.append(output)
        case .enforceRetention: retentionPasses += 1
        case let .complete(client, answer): deferredAnswers.append((client, answer))
        case .retryStoreWrites, .status, .provisioningChanged, .reopenLink, .recordLinkErrors, .driverChanged, .recordsQueued: break
        }
    }

    // MARK: What was stored

    struct Session: Equatable, CustomStringConvertible {
        var driver: String
        var reason: String
        var kilometers: Double
        var resumed: Bool
        var description: String { "\(driver) \(reason) \(JSONLine.formatFixed(kilometers, decimals: 2)) km\(resumed ? " resumed" : "")" }
    }

    /// The trips as the store keeps them, in order: a session resumed without a tap (continuity
    /// rules) reopens the one it continues, so its end replaces the earlier end.
    var sessions: [Session] {
        var resumedDrivers: [DriverID] = []
        var result: [(driver: DriverID, session: Session)] = []
        for output in stored {
            switch output {
            case let .sessionResumed(resumption):
                resumedDrivers.append(resumption.driver)
                if resumption.continuing, let last = result.lastIndex(where: { $0.driver == resumption.driver }) {
                    result.remove(at: last)
                }
            case let .sessionEnded(record):
                let resumed = resumedDrivers.firstIndex(of: record.driver).map { resumedDrivers.remove(at: $0) } != nil
                result.append((record.driver, Session(
                    driver: core.directory.name(of: record.driver) ?? "?", reason: record.reason.rawValue,
                    kilometers: record.metrics.distance.kilometers, resumed: resumed)))
            default: break
            }
        }
        return result.map(\.session)
    }

    /// Untracked driving stored, kilometres.
    var untrackedKilometers: Double {
        stored.reduce(0) { total, output in
            if case let .untrackedDriving(chunk) = output { return total + chunk.distance.kilometers }
            return total
        }
    }
}

/// The core's provisioning port on memory (the shell's is the store).
final class MemoryProvisioningRecords: ProvisioningRecords {
    var stored: DriverDirectory
    var storedVehicle: VehicleFuelSettings
    var uuids: [DriverID: UUID128] = [:]
    /// When set, reading the vehicle fails with it (a store that cannot be read).
    var vehicleFailure: String?

    init(directory: DriverDirectory, vehicle: VehicleFuelSettings) {
        stored = directory
        storedVehicle = vehicle
    }

    struct NotFound: Error, CustomStringConvertible {
        var description: String
    }

    func driver(named name: String) throws -> DriverDirectory.Driver {
        guard let driver = stored.drivers.first(where: { $0.name == name }) else { throw NotFound(description: "no driver named '\(name)'") }
        return driver
    }

    func driverUUID(for driver: DriverID, make: () -> UUID128) throws -> UUID128 {
        if let uuid = uuids[driver] { return uuid }
        let uuid = make()
        uuids[driver] = uuid
        return uuid
    }

    func bind(tag: TagIdentity, to driver: DriverID) throws -> Bool {
        if stored.tags.contains(where: { $0.identity == tag && $0.driver == driver }) { return false }
        stored.bind(tag: tag, to: driver)
        return true
    }

    func bind(beacon: BeaconIdentity, to driver: DriverID) throws -> Bool {
        if stored.beacons.contains(where: { $0.identity == beacon && $0.driver == driver }) { return false }
        stored.bind(beacon: beacon, to: driver)
        return true
    }

    func directory() throws -> DriverDirectory { stored }
    func vehicle() throws -> VehicleFuelSettings {
        if let vehicleFailure { throw NotFound(description: vehicleFailure) }
        return storedVehicle
    }
}

extension VehicleFuelSettings {
    /// The store's default vehicle (a petrol family car), as a fresh store holds it.
    static let familyCar = VehicleFuelSettings(
        massKilograms: 1_400, ratedLitersPer100km: 6.5, idleLitersPerHour: 0.8, fuelType: "petrol", fuelScale: 1,
        untrackedPolicy: "owner")
}
