import FairFuelConfiguration
import FairFuelCore
import FairFuelDomain
import FairFuelLink
import FairFuelParsers
import FairFuelService
import FairFuelServiceCore
@testable import FairFuelSimulation
import FairFuelStore
import Foundation

/// The live service without its pseudo-terminal: the core and recorder `ServiceRuntime` builds
/// (`ServiceAssembly`) on a real store, in lock-step with the virtual MCU's core on simulated
/// host time, woken as the runtime's poll loop wakes (bytes from the MCU, or poll's timeout the
/// core asks for), the actions performed on the store as the runtime performs them. Everything
/// the service reads is written to a capture, with the time it was read, as `fairfuel record`
/// on the port would have.
struct LiveServiceRig {
    let plan: SimPlan
    let store: TripStore
    let assembly: ServiceAssembly
    private var mcu: VirtualMCUCore
    private var capture: CaptureFileWriter
    private(set) var now: Int64
    private var fromMCU: [VirtualMCUCore.Output] = []
    private var toMCU: [[UInt8]] = []
    private var plugged = true

    /// `store`: provisioned for the scenario (`provision`).
    init(plan: SimPlan, store: TripStore, capturePath: String, board: BoardProfile = .piZero2W) throws {
        self.plan = plan
        mcu = VirtualMCUCore(plan: plan)
        self.store = store
        assembly = try ServiceAssembly(board: board, store: store, port: "virtual") { store in try store.beginRun(note: "service") }
        capture = try CaptureFileWriter(path: capturePath)
        // The runtime opens the port at its first turn; the MCU's first bytes come then.
        now = mcu.nextEventTime
        var opened: [ServiceAction] = []
        assembly.core.linkOpened(opener: "virtual", message: "virtual MCU attached", at: LinkMilliseconds(now)) { opened.append($0) }
        for action in opened { perform(action) }
        handToMCU()
    }

    /// The scenario's drivers with their tag UIDs, URI tags and beacons (as `fairfuel demo` does).
    static func provision(_ store: TripStore, for plan: SimPlan) throws {
        for driver in plan.scenario.drivers {
            var tags: [TagIdentity] = []
            if let tag = plan.tag(ofDriver: driver.name) { tags.append(.uid(try TagUID(bytes: tag.uid[...]))) }
            if let uri = driver.driverURI { tags.append(.driver(uri.driverID)) }
            _ = try store.addDriver(name: driver.name, tags: tags, beacons: driver.beacon.map { [$0] } ?? [])
        }
    }

    /// Plays until host time `endMs`, then stops the service as SIGTERM does.
    mutating func run(until endMs: Int64) throws {
        let core = assembly.core
        while now < endMs {
            // poll returns when the MCU's bytes arrive or at the timeout the core asks for; bytes
            // the MCU wrote in answer to the last turn's commands arrive a millisecond later.
            var wake = min(now + max(1, core.millisecondsUntilWork(at: LinkMilliseconds(now))), mcu.nextEventTime, endMs)
            if !fromMCU.isEmpty { wake = min(wake, now + 1) }
            now = max(wake, now + 1)
            mcu.advance(to: now, into: &fromMCU)
            let time = LinkMilliseconds(now)
            let outputs = fromMCU
            fromMCU.removeAll(keepingCapacity: true)
            for output in outputs {
                switch output {
                case let .bytes(bytes, _):
                    try capture.write(timeMs: UInt64(now), bytes: bytes)
                    var actions: [ServiceAction] = []
                    core.received(bytes[...], at: time) { actions.append($0) }
                    for action in actions { perform(action) }
                case .unplug:
                    plugged = false
                    core.linkLost("the virtual MCU was unplugged", at: time)
                case .replug:
                    plugged = true
                }
            }
            var actions: [ServiceAction] = []
            core.timePassed(at: time) { actions.append($0) }
            // The loop's next turn opens the port when the core wants it (and fails while it is unplugged).
            if core.wantsLink(at: time) {
                if plugged {
                    core.linkOpened(opener: "virtual", message: "virtual MCU reopened", at: time) { actions.append($0) }
                } else {
                    core.linkOpenFailed("no such device", at: time)
                }
            }
            for action in actions { perform(action) }
            handToMCU()
        }
        var actions: [ServiceAction] = []
        core.finish(at: LinkMilliseconds(now)) { actions.append($0) }
        for action in actions { perform(action) }
        _ = assembly.recorder.finish()
        try capture.close()
    }

    /// What `ServiceRuntime.perform` does with each action, without the control socket, the
    /// uplink and systemd (none of which writes the store).
    private mutating func perform(_ action: ServiceAction) {
        if case let .send(wire) = action { toMCU.append(wire) }
        assembly.performOnStore(action, store: store)
    }

    /// The commands of this turn reach the MCU now.
    private mutating func handToMCU() {
        let wires = toMCU
        toMCU.removeAll(keepingCapacity: true)
        for wire in wires where plugged { mcu.receive(wire[...], at: now, into: &fromMCU) }
    }
}

/// A `.ffcap` file written line by line, as `fairfuel record` writes one.
struct CaptureFileWriter {
    private let handle: FileHandle
    private var buffered = ""

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data((CaptureFormat.header + "\n").utf8)) else {
            throw CocoaError(.fileWriteUnknown)
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
    }

    mutating func write(timeMs: UInt64, bytes: [UInt8]) throws {
        buffered += CaptureFormat.line(timeMs: timeMs, direction: .rx, bytes: bytes)
        buffered += "\n"
        if buffered.utf8.count >= 1 << 20 { try flush() }
    }

    mutating func close() throws {
        try flush()
        try handle.close()
    }

    private mutating func flush() throws {
        try handle.write(contentsOf: Data(buffered.utf8))
        buffered.removeAll(keepingCapacity: true)
    }
}
