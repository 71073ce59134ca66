import FairFuelCore
import FairFuelLink
import FairFuelParsers

/// The MCU firmware's behaviour, without any I/O: simulated time in, wire bytes out.
///
/// `advance(to:into:)` plays every scheduled event up to a simulated time (heartbeats,
/// NMEA epochs, advertisements, taps, ignition, resets); `receive(_:at:into:)` handles
/// host bytes (ACKs, HELLO, filters, writes, feedback, bootloader). Outputs carry their
/// bytes already framed and, when the scenario says so, corrupted. `VirtualMCU` moves
/// the bytes over a pseudo-terminal; a test can drive this type directly. The frames come
/// from `MCUTrafficGenerator`, as the soak and synthetic traffic's do.
public struct VirtualMCUCore {
    public enum Output {
        /// Bytes for the line: one frame (maybe corrupted) or a garbage burst.
        case bytes([UInt8], frameType: UInt8?)
        /// The USB cable is pulled: close the port.
        case unplug
        /// Plugged in again: open a new port.
        case replug
    }

    enum Power {
        case running
        /// Reset; the HELLO goes out at `helloAt`.
        case booting(helloAt: Int64)
        /// In the bootloader: silent until `until`, then a reset.
        case bootloader(until: Int64)
        case unplugged(until: Int64)
    }

    struct PendingWrite {
        var seq: UInt16
        var deadline: Int64
        var ndef: [UInt8]
    }

    public let plan: SimPlan
    public internal(set) var now: Int64 = 0
    var power: Power
    /// Uptime = `uptimeBase + t`, modulo 2^32.
    var uptimeBase: Int64
    /// The share of an off period (reset, bootloader, unplug) the host's clock does not see:
    /// 1 − 1/speed when the MCU runs sped up, 0 in real time. See `reset(at:reason:)`.
    public var unseenOffShare = 0.0
    /// When the MCU last went quiet (reset, bootloader, unplug); nil while it runs.
    var offSinceMs: Int64?
    var generator: MCUTrafficGenerator
    var decoder = FrameDecoder(sender: .host)
    var heldWhileBooting: [UInt8] = []
    var filter: [BLEFilter.Entry] = []
    var pendingWrite: PendingWrite?
    var recentAcks: [(seq: UInt16, status: Ack.Status)] = []
    var ignition = false
    var lastIgnitionChange: Int64 = -3_600_000
    var droppedSinceBoot = 0
    var nextHeartbeat: Int64?
    var nextEpoch: Int64?
    var actionIndex = 0
    var advertisers: [SimAdvertiser]
    var heap: AdvertiserHeap
    var gnss: GNSSReceiverModel
    var noise: LineNoiseInjector
    var nextBurst: Int64?
    var random: SplitMix
    var tagNDEF: [[UInt8]]
    var vehicleHint = 0
    public internal(set) var ended = false
    /// NFC_TAG and POWER repeated until the host acknowledges them (revision 1.1).
    var reliable: ReliableEventSender
    /// A driver who hears no beep within 3 s of a tap taps again (twice at most).
    var retap: (tag: Int, dueAt: Int64, left: Int)?
    static let retapAfterMs: Int64 = 3_000
    static let retapsPerTap = 2

    public internal(set) var statistics = VirtualMCUStatistics()
    public internal(set) var feedback: [FeedbackRecord] = []
    /// Events since the last `takeEvents()`.
    var events: [SimEvent] = []

    public init(plan: SimPlan) {
        self.plan = plan
        let scenario = plan.scenario
        power = .booting(helloAt: scenario.mcu.bootMs)
        uptimeBase = Int64(scenario.mcu.initialUptimeMs) - scenario.mcu.bootMs
        generator = MCUTrafficGenerator(identity: scenario.mcu)
        advertisers = plan.advertisers.map(SimAdvertiser.init(plan:))
        heap = AdvertiserHeap()
        gnss = GNSSReceiverModel(settings: scenario.gnss, seed: scenario.seed ^ 0x6A55)
        noise = LineNoiseInjector(settings: scenario.noise, seed: scenario.seed ^ 0x4015E)
        random = SplitMix(seed: scenario.seed ^ 0x5EED_1)
        tagNDEF = plan.tags.map(\.ndef)
        reliable = ReliableEventSender(enabled: scenario.mcu.capabilities.contains(.reliableEvents))
        for index in advertisers.indices where advertisers[index].nextMs != .max {
            heap.push(time: advertisers[index].nextMs, index: index)
        }
        nextBurst = noise.nextBurstGap()
        events.append(SimEvent(simMs: 0, kind: .reset(reason: "power-on")))
        statistics.resets = 1
    }

    public var isRunning: Bool {
        if case .running = power { return true }
        return false
    }

    func uptime(at time: Int64) -> UInt32 { UInt32(truncatingIfNeeded: uptimeBase + time) }

    public mutating func takeEvents() -> [SimEvent] {
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }

    /// The MCU could not queue a frame (the host is not reading): counted in HEARTBEAT's mcu_dropped.
    public mutating func noteDropped(_ count: Int = 1) {
        droppedSinceBoot += count
        statistics.framesDropped += count
    }

    /// Whether nothing is due soon: ignition off and no scripted event within `margin`.
    /// Returns the simulated time until which that holds.
    public func quietUntil(margin: Int64) -> Int64? {
        guard !ignition, pendingWrite == nil, retap == nil, reliable.nextDue == nil, plan.gnssPoweredSince(now) == nil else { return nil }
        if case .running = power {} else { return nil }
        let nextAction = actionIndex < plan.actions.count ? plan.actions[actionIndex].timeMs : plan.endMs
        let nextGNSS = plan.nextGNSSPowerOn(atOrAfter: now) ?? .max
        let until = min(nextAction, nextGNSS, plan.endMs) - margin
        return until > now ? until : nil
    }

    /// The simulated time of the next scheduled event.
    public var nextEventTime: Int64 {
        var next = ended ? Int64.max : plan.endMs
        switch power {
        case .booting(let at): next = min(next, at)
        case .bootloader(let until), .unplugged(let until): next = min(next, until)
        case .running: break
        }
        if actionIndex < plan.actions.count { next = min(next, plan.actions[actionIndex].timeMs) }
        if let nextHeartbeat { next = min(next, nextHeartbeat) }
        if let nextEpoch { next = min(next, nextEpoch) }
        if let top = heap.top { next = min(next, top.time) }
        if let pendingWrite { next = min(next, pendingWrite.deadline) }
        if let nextBurst { next = min(next, nextBurst) }
        if isRunning, let due = reliable.nextDue { next = min(next, due) }
        if let retap { next = min(next, retap.dueAt) }
        return max(next, now)
    }

    // MARK: time

    /// Plays everything scheduled up to and including `target`. After the scenario's end the
    /// MCU goes on as a parked car's would (heartbeats); the caller decides when to stop.
    public mutating func advance(to target: Int64, into out: inout [Output]) {
        while true {
            let time = nextEventTime
            if time > target { break }
            now = time
            if !ended && time >= plan.endMs {
                ended = true
                events.append(SimEvent(simMs: time, kind: .end))
                continue
            }
            if !step(at: time, into: &out) { break }
        }
        now = max(now, target)
    }

    /// Plays the one event due at `time`; false when none was (nothing to do yet).
    mutating func step(at time: Int64, into out: inout [Output]) -> Bool {
        switch power {
        case .booting(let at) where at <= time:
            power = .running
            sendHello(at: time, into: &out)
            events.append(SimEvent(simMs: time, kind: .hello(requested: false)))
            let phase = Int64(uptime(at: time) % 1000)
            nextHeartbeat = time + 1000 - phase
            scheduleEpoch(after: time)
            if !heldWhileBooting.isEmpty {
                let held = heldWhileBooting
                heldWhileBooting = []
                consume(held[...], at: time, into: &out)
            }
            return true
        case .bootloader(let until) where until <= time:
            reset(at: time, reason: "leaving the bootloader")
            return true
        case .unplugged(let until) where until <= time:
            out.append(.replug)
            reset(at: time, reason: "USB power back")
            return true
        default: break
        }
        if actionIndex < plan.actions.count && plan.actions[actionIndex].timeMs <= time {
            let action = plan.actions[actionIndex]
            actionIndex += 1
            perform(action, into: &out)
            return true
        }
        if isRunning, let due = reliable.nextDue, due <= time {
            for copy in reliable.takeDue(at: time) {
                reliable.copySent(copy.serial, seq: send(copy.message, at: time, into: &out))
            }
            return true
        }
        if let again = retap, again.dueAt <= time {
            retap = again.left > 1 ? (again.tag, time + Self.retapAfterMs, again.left - 1) : nil
            statistics.retaps += 1
            events.append(SimEvent(simMs: time, kind: .note("\(plan.tags[again.tag].label) taps again: no beep within 3 s")))
            present(again.tag, at: time, into: &out)
            return true
        }
        if let beat = nextHeartbeat, beat <= time {
            send(MCUTrafficGenerator.heartbeat(
                uptimeMs: uptime(at: time), dropped: droppedSinceBoot, supplyMillivolts: supply(at: time), ignitionOn: ignition),
                at: time, into: &out)
            nextHeartbeat = beat + 1000
            return true
        }
        if let epoch = nextEpoch, epoch <= time {
            emitEpoch(at: time, into: &out)
            return true
        }
        if let top = heap.top, top.time <= time {
            _ = heap.pop()
            var advertiser = advertisers[top.index]
            let heard = advertiser.advertise(radio: plan.scenario.radio)
            if let heard, isRunning, advertiser.passes(filter, at: top.time) {
                send(.bleAdvertisement(BLEAdvertisementReport(
                    mcuTimeMs: uptime(at: top.time), address: advertiser.address(at: top.time),
                    addressType: advertiser.addressType, advertisingType: advertiser.advertisingType,
                    rssiDBm: heard.rssi, data: heard.data[...])), at: time, into: &out)
            }
            if advertiser.nextMs != .max { heap.push(time: advertiser.nextMs, index: top.index) }
            advertisers[top.index] = advertiser
            return true
        }
        if let write = pendingWrite, write.deadline <= time {
            pendingWrite = nil
            acknowledge(write.seq, .timeout, at: time, into: &out)
            return true
        }
        if let burst = nextBurst, burst <= time {
            if isRunning { emitGarbage(noise.garbage(), at: time, into: &out) }
            nextBurst = noise.nextBurstGap().map { time + $0 }
            return true
        }
        return false
    }

    mutating func perform(_ action: PlannedAction, into out: inout [Output]) {
        let time = action.timeMs
        switch action.kind {
        case .present(let tag):
            // A driver expects the beep; a technician presenting blanks watches the tool instead.
            if plan.tags[tag].driver != nil { retap = (tag, time + Self.retapAfterMs, Self.retapsPerTap) }
            present(tag, at: time, into: &out)
        case .ignition(let on):
            guard on != ignition else { return }
            ignition = on
            lastIgnitionChange = time
            events.append(SimEvent(simMs: time, kind: .ignition(on: on)))
            if isRunning {
                sendEvent(MCUTrafficGenerator.power(uptimeMs: uptime(at: time), ignitionOn: on, supplyMillivolts: supply(at: time)), at: time, into: &out)
            }
        case .reboot:
            reset(at: time, reason: "watchdog reboot")
        case .unplug(let duration):
            events.append(SimEvent(simMs: time, kind: .unplugged))
            out.append(.unplug)
            enterSilence(.unplugged(until: time + duration), at: time)
        case .noise(let settings):
            noise.change(to: settings)
            events.append(SimEvent(simMs: time, kind: .noise(settings)))
            nextBurst = noise.nextBurstGap().map { time + $0 }
        case .garbage(let count):
            if isRunning { emitGarbage(noise.garbage(count: count), at: time, into: &out) }
        case .log(let level, let text):
            if isRunning { send(.log(MCULog(level: level, text: text)), at: time, into: &out) }
            events.append(SimEvent(simMs: time, kind: .log(text)))
        case .note(let text):
            events.append(SimEvent(simMs: time, kind: .note(text)))
        case .end:
            break
        }
    }

    /// A tag held to the reader at `time` (a scripted tap, or a person trying again).
    mutating func present(_ tag: Int, at time: Int64, into out: inout [Output]) {
        let tagPlan = plan.tags[tag]
        let uidText = Hex.string(tagPlan.uid)
        guard isRunning else {
            events.append(SimEvent(simMs: time, kind: .missed("\(tagPlan.label) \(uidText)")))
            return
        }
        events.append(SimEvent(simMs: time, kind: .tagPresented(label: tagPlan.label, uid: uidText)))
        if let write = pendingWrite {
            pendingWrite = nil
            let fits = write.ndef.count <= tagPlan.kind.ndefCapacity
            guard !tagPlan.readOnly, fits else {
                acknowledge(write.seq, .failed, at: time, into: &out)
                return
            }
            tagNDEF[tag] = write.ndef
            events.append(SimEvent(simMs: time, kind: .tagWritten(label: tagPlan.label, uid: uidText, bytes: write.ndef.count)))
            acknowledge(write.seq, .ok, at: time, into: &out)
        }
        sendEvent(MCUTrafficGenerator.tag(
            uptimeMs: uptime(at: time), technology: tagPlan.kind.technology,
            atqa: tagPlan.kind.atqa(uidLength: tagPlan.uid.count), sak: tagPlan.kind.sak, uid: tagPlan.uid[...],
            ndef: tagNDEF[tag][...]), at: time, into: &out)
    }

    // MARK: host commands

    /// Handles bytes from the host that arrived at simulated time `time`.
    public mutating func receive(_ bytes: ArraySlice<UInt8>, at time: Int64, into out: inout [Output]) {
        advance(to: time, into: &out)
        consume(bytes, at: time, into: &out)
    }

    mutating func consume(_ bytes: ArraySlice<UInt8>, at time: Int64, into out: inout [Output]) {
        if case .booting = power {
            // The USB stack holds what the host sent until the firmware is up.
            if heldWhileBooting.count < 4096 { heldWhileBooting.append(contentsOf: bytes) }
            return
        }
        guard isRunning else { return }  // a bootloader or an unplugged MCU does not speak the protocol
        let chunk = bytes.span
        var offset = 0
        repeat {
            offset += decoder.append(chunk.extracting(droppingFirst: offset))
            while let output = decoder.next() {
                handleHostOutput(output, at: time, into: &out)
                // A reset or the bootloader: what the host sent after is lost with the RAM.
                guard isRunning else { return }
            }
        } while offset < chunk.count
        statistics.hostCounters = decoder.counters
    }

    mutating func handleHostOutput(_ output: DecoderOutput, at time: Int64, into out: inout [Output]) {
        statistics.hostCounters = decoder.counters
        switch output {
        case .frame(let frame): execute(frame, at: time, into: &out)
        case .duplicate(let duplicateSeq, _):
            events.append(SimEvent(simMs: time, kind: .duplicate(seq: duplicateSeq)))
            if let previous = recentAcks.last(where: { $0.seq == duplicateSeq }) {
                statistics.duplicatesReacked += 1
                acknowledge(duplicateSeq, previous.status, at: time, into: &out, remember: false)
            }
        case .anomaly(.badPayload):
            // The frame passed the CRC, so its seq is known: the host gets its ACK.
            if let seq = decoder.lastHeader?.seq { acknowledge(seq, .badPayload, at: time, into: &out) }
        case .anomaly:
            break
        }
    }

    mutating func execute(_ frame: Frame, at time: Int64, into out: inout [Output]) {
        let name = frame.message.jsonName
        events.append(SimEvent(simMs: time, kind: .hostCommand(name: name, seq: frame.seq)))
        switch frame.message {
        case .helloRequest:
            acknowledge(frame.seq, .ok, at: time, into: &out)
            sendHello(at: time, into: &out)
            events.append(SimEvent(simMs: time, kind: .hello(requested: true)))
        case .bleFilter(let newFilter):
            filter = newFilter.entries
            events.append(SimEvent(simMs: time, kind: .bleFilter(entries: filter.count)))
            acknowledge(frame.seq, .ok, at: time, into: &out)
        case .nfcWrite(let write):
            if let pending = pendingWrite {
                // The host resends a write it has no ACK for yet (the ACK comes at the write):
                // the same seq is the waiting write, not a second one.
                if pending.seq != frame.seq { acknowledge(frame.seq, .busy, at: time, into: &out) }
                return
            }
            guard plan.scenario.mcu.capabilities.contains(.nfcWrite) else {
                acknowledge(frame.seq, .failed, at: time, into: &out)
                return
            }
            pendingWrite = PendingWrite(seq: frame.seq, deadline: time + Int64(write.timeoutSeconds) * 1000, ndef: Array(write.ndef))
        case .eventAck(let ack):
            // Settles the event; the MCU does not ACK an EVENT_ACK.
            reliable.acknowledged(ack.ackedSeq)
        case .feedback(let pattern):
            retap = nil  // the driver heard the beep
            feedback.append(FeedbackRecord(simMs: time, uptimeMs: uptime(at: time), seq: frame.seq, pattern: pattern))
            events.append(SimEvent(simMs: time, kind: .feedback(pattern)))
            acknowledge(frame.seq, .ok, at: time, into: &out)
        case .bootloader:
            acknowledge(frame.seq, .ok, at: time, into: &out)
            events.append(SimEvent(simMs: time, kind: .bootloader))
            enterSilence(.bootloader(until: time + plan.scenario.mcu.bootloaderMs), at: time)
        default:
            // Unknown types, and MCU-to-host types sent by the host.
            acknowledge(frame.seq, .unknownType, at: time, into: &out)
        }
    }

    mutating func acknowledge(
        _ seq: UInt16, _ status: Ack.Status, at time: Int64, into out: inout [Output], remember: Bool = true
    ) {
        if remember {
            recentAcks.append((seq, status))
            if recentAcks.count > 16 { recentAcks.removeFirst() }
        }
        statistics.acksSent += 1
        events.append(SimEvent(simMs: time, kind: .ack(seq: seq, status: status)))
        send(.ack(Ack(ackedSeq: seq, status: status)), at: time, into: &out)
    }
}
