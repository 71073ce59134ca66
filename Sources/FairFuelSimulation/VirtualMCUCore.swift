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

    private enum Power {
        case running
        /// Reset; the HELLO goes out at `helloAt`.
        case booting(helloAt: Int64)
        /// In the bootloader: silent until `until`, then a reset.
        case bootloader(until: Int64)
        case unplugged(until: Int64)
    }

    private struct PendingWrite {
        var seq: UInt16
        var deadline: Int64
        var ndef: [UInt8]
    }

    public let plan: SimPlan
    public private(set) var now: Int64 = 0
    private var power: Power
    /// Uptime = `uptimeBase + t`, modulo 2^32.
    private var uptimeBase: Int64
    /// The share of an off period (reset, bootloader, unplug) the host's clock does not see:
    /// 1 − 1/speed when the MCU runs sped up, 0 in real time. See `reset(at:reason:)`.
    public var unseenOffShare = 0.0
    /// When the MCU last went quiet (reset, bootloader, unplug); nil while it runs.
    private var offSinceMs: Int64?
    private var generator: MCUTrafficGenerator
    private var decoder = FrameDecoder(sender: .host)
    private var heldWhileBooting: [UInt8] = []
    private var filter: [BLEFilter.Entry] = []
    private var pendingWrite: PendingWrite?
    private var recentAcks: [(seq: UInt16, status: Ack.Status)] = []
    private var ignition = false
    private var lastIgnitionChange: Int64 = -3_600_000
    private var droppedSinceBoot = 0
    private var nextHeartbeat: Int64?
    private var nextEpoch: Int64?
    private var actionIndex = 0
    private var advertisers: [SimAdvertiser]
    private var heap: AdvertiserHeap
    private var gnss: GNSSReceiverModel
    private var noise: LineNoiseInjector
    private var nextBurst: Int64?
    private var random: SplitMix
    private var tagNDEF: [[UInt8]]
    private var vehicleHint = 0
    public private(set) var ended = false
    /// NFC_TAG and POWER repeated until the host acknowledges them (revision 1.1).
    private(set) var reliable: ReliableEventSender
    /// A driver who hears no beep within 3 s of a tap taps again (twice at most).
    private var retap: (tag: Int, dueAt: Int64, left: Int)?
    static let retapAfterMs: Int64 = 3_000
    static let retapsPerTap = 2

    public private(set) var statistics = VirtualMCUStatistics()
    public private(set) var feedback: [FeedbackRecord] = []
    /// Events since the last `takeEvents()`.
    private(set) var events: [SimEvent] = []

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
    private mutating func step(at time: Int64, into out: inout [Output]) -> Bool {
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

    private mutating func perform(_ action: PlannedAction, into out: inout [Output]) {
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
    private mutating func present(_ tag: Int, at time: Int64, into out: inout [Output]) {
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

    private mutating func consume(_ bytes: ArraySlice<UInt8>, at time: Int64, into out: inout [Output]) {
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

    private mutating func handleHostOutput(_ output: DecoderOutput, at time: Int64, into out: inout [Output]) {
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

    private mutating func execute(_ frame: Frame, at time: Int64, into out: inout [Output]) {
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

    private mutating func acknowledge(
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

    // MARK: frames

    /// Frames `message` for the line; returns its seq (nil if it could not be framed).
    @discardableResult
    private mutating func send(_ message: LinkMessage, at time: Int64, into out: inout [Output]) -> UInt16? {
        let seq = generator.nextSeq
        guard var bytes = generator.frame(message) else { return nil }
        statistics.framesSent += 1
        statistics.bytesSent += bytes.count
        statistics.framesByType[message.rawType, default: 0] += 1
        let hits = noise.corrupt(&bytes)
        if hits > 0 {
            statistics.framesCorrupted += 1
            statistics.bytesCorrupted += hits
        }
        out.append(.bytes(bytes, frameType: message.rawType))
        return seq
    }

    /// Sends a reliable event (NFC_TAG, POWER): kept and repeated until acknowledged when the
    /// MCU has capability bit 5; an event pushed out of a full window counts as dropped.
    private mutating func sendEvent(_ message: LinkMessage, at time: Int64, into out: inout [Output]) {
        guard let seq = send(message, at: time, into: &out) else { return }
        let dropped = reliable.sent(message, seq: seq, at: time)
        if dropped > 0 { noteDropped(dropped) }
    }

    private mutating func sendHello(at time: Int64, into out: inout [Output]) {
        send(generator.hello(uptimeMs: uptime(at: time)), at: time, into: &out)
        reliable.helloSent()
    }

    private mutating func emitGarbage(_ bytes: [UInt8], at time: Int64, into out: inout [Output]) {
        statistics.garbageBursts += 1
        statistics.garbageBytes += bytes.count
        events.append(SimEvent(simMs: time, kind: .garbage(bytes: bytes.count)))
        out.append(.bytes(bytes, frameType: nil))
    }

    private mutating func emitEpoch(at time: Int64, into out: inout [Output]) {
        guard let epoch = nextEpoch else { return }
        if isRunning, let poweredSince = plan.gnssPoweredSince(epoch) {
            let vehicle = plan.vehicle(at: epoch, hint: &vehicleHint)
            let hasFix = epoch - poweredSince >= plan.scenario.gnss.timeToFirstFixMs
            let sentences = gnss.epoch(
                utcMs: plan.scenario.startUTCMilliseconds + epoch, simMs: epoch, state: vehicle.sample, hasFix: hasFix)
            for (delay, sentence) in sentences {
                send(MCUTrafficGenerator.nmea(uptimeMs: uptime(at: epoch + delay), sentence), at: time, into: &out)
            }
        }
        scheduleEpoch(after: epoch)
    }

    /// Finds the next epoch after `time` at which the receiver is powered; the event fires
    /// when the epoch's sentences are through the receiver's UART.
    private mutating func scheduleEpoch(after time: Int64) {
        let period = gnss.epochMs
        let utcStart = plan.scenario.startUTCMilliseconds
        // Output starts half a second after power-up, on UTC epoch boundaries.
        let earliest: Int64
        if let since = plan.gnssPoweredSince(time + 1) {
            earliest = max(time + 1, since + 500)
        } else if let on = plan.nextGNSSPowerOn(atOrAfter: time + 1) {
            earliest = on + 500
        } else {
            nextEpoch = nil
            return
        }
        let utc = utcStart + earliest
        let aligned = ((utc + period - 1) / period) * period - utcStart
        nextEpoch = aligned
        if plan.gnssPoweredSince(aligned) == nil { scheduleEpoch(after: aligned) }
    }

    /// Supply voltage: the alternator's ~14 V while the engine runs, the battery's ~12.5 V
    /// (a little higher right after a drive) when off; a dip at cranking.
    private mutating func supply(at time: Int64) -> UInt16 {
        let since = Double(time - lastIgnitionChange) / 1000
        let jitter = random.gaussian()
        if ignition {
            if since < 1.5 { return UInt16(11_900 + Int(60 * jitter)) }
            return UInt16(14_050 + Int(45 * jitter))
        }
        let surface = 250 * (1 / (1 + since / 600))
        return UInt16(12_450 + Int(surface) + Int(12 * jitter))
    }

    // MARK: resets

    private mutating func enterSilence(_ state: Power, at time: Int64) {
        if offSinceMs == nil { offSinceMs = time }
        power = state
        nextHeartbeat = nil
        nextEpoch = nil
        pendingWrite = nil
        decoder.restartStream()
        heldWhileBooting.removeAll()
    }

    private mutating func reset(at time: Int64, reason: String) {
        events.append(SimEvent(simMs: time, kind: .reset(reason: reason)))
        statistics.resets += 1
        let helloAt = time + plan.scenario.mcu.bootMs
        // A host measures an off period on its own clock, which sees only 1/speed of it in a
        // sped-up run: the first uptime after it carries the rest, so that the host's link time
        // stays on simulated time (a real MCU at 1x restarts from 0).
        let offMs = helloAt - (offSinceMs ?? time)
        let unseenMs = Int64((Double(offMs) * unseenOffShare).rounded())
        enterSilence(.booting(helloAt: helloAt), at: time)
        offSinceMs = nil
        uptimeBase = -time + max(0, unseenMs)
        generator.restart()
        decoder.restartStream()
        filter = []
        recentAcks = []
        droppedSinceBoot = 0
        reliable.helloSent()  // RAM is gone: nothing waits
    }
}
