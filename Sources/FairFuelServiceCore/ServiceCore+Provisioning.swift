import FairFuelCore
import FairFuelDomain
import FairFuelLink
import FairFuelParsers

/// The technician's control requests: learn-tag, learn-beacon, write-tag, mcu info and
/// bootloader. Each long one is answered later (`ControlAnswer.later`, then `ServiceAction.complete`) and ends
/// with a FEEDBACK on the dongle: provisioning when it starts, accepted or rejected at the end.
///
/// Requests (one line each; DRIVER is the rest of the line, so names may hold spaces):
///
///     learn-tag TIMEOUT_S DRIVER
///     learn-beacon TIMEOUT_S HOLD_S DRIVER
///     write-tag TIMEOUT_S DRIVER
///     mcu info | mcu bootloader
extension ServiceCore {
    /// Answers a provisioning request now, or later.
    func provisioningAnswer(_ words: [String], from client: ControlRequestID, at now: LinkMilliseconds, _ perform: ServiceActions) -> ControlAnswer {
        if words.first == "mcu" {
            switch words.dropFirst().first {
            case "info": return .now(mcuInfoJSON() + "\n")
            case "bootloader": return startBootloader(from: client, at: now, perform)
            default: return .now("error: mcu info or mcu bootloader\n")
            }
        }
        if let busy = provisioning.busyDescription { return .now("error: busy \(busy); try again when it is done\n") }
        guard linkIsUp else { return .now("error: the MCU link is down; provisioning needs the dongle's MCU\n") }
        guard let records else { return .now("error: no store to provision\n") }
        let numbers = words.dropFirst().prefix { Int($0) != nil }.compactMap { Int($0) }
        let name = words.dropFirst(1 + numbers.count).joined(separator: " ")
        let wanted = words[0] == "learn-beacon" ? 2 : 1
        guard numbers.count == wanted, !name.isEmpty, numbers.allSatisfy({ (1...255).contains($0) }) else {
            return .now("error: usage: \(words[0]) TIMEOUT_S\(wanted == 2 ? " HOLD_S" : "") DRIVER (seconds 1 to 255)\n")
        }
        // The records check the name by the CLI's rules: a request line is typed input too.
        let driver: DriverDirectory.Driver
        do {
            driver = try records.driver(named: name)
        } catch {
            return .now("error: \(error)\n")
        }
        if words[0] == "write-tag", let firmware = ingest.firmware, !firmware.capabilities.contains(.nfcWrite) {
            return .now("error: this MCU cannot write tags (its HELLO lacks the nfc_write capability)\n")
        }
        let timeoutMs = Int64(numbers[0]) * 1000
        // First, so that the NFC_WRITE's resends (same seq) follow it directly.
        send(.feedback(.provisioning), at: now, perform)
        var task = ProvisioningDesk.Task(
            kind: .learnTag, client: client, driverID: driver.id, driverName: driver.name, startedMs: now.value,
            deadlineMs: now.value + timeoutMs)
        switch words[0] {
        case "learn-tag":
            logger.notice("learn mode: the next tag tapped within \(numbers[0]) s goes to \(driver.name)")
        case "learn-beacon":
            task.kind = .learnBeacon(holdMs: Int64(numbers[1]) * 1000)
            // Every advertisement, not only provisioned ones: the new beacon must be heard.
            send(.bleFilter(BLEFilter(entries: [])), at: now, perform)
            logger.notice("learn mode: the beacon held next to the dongle for \(numbers[1]) s goes to \(driver.name)")
        default:
            let uuid: UUID128
            do {
                uuid = try records.driverUUID(for: driver.id) { UUID128.random() }
            } catch {
                return .now("error: \(error)\n")
            }
            let uri = DriverURI(driverID: uuid)
            guard let sent = tracker.send(.nfcWrite(NFCWrite(timeoutSeconds: UInt8(numbers[0]), ndef: uri.ndefMessage[...])), at: now, { _ in }) else {
                return .now("error: the MCU's transmit queue is full; try again\n")
            }
            perform(.send(sent.wire))
            task.kind = .writeTag(uri: uri, seq: sent.seq, written: false)
            // The MCU answers at the write, or at its own timeout: allow for the link's delays.
            task.deadlineMs += 3_000
            logger.notice("writing \(uri) to the next blank tag presented within \(numbers[0]) s, for \(driver.name)")
        }
        provisioning.task = task
        return .later
    }

    /// Takes the frames a provisioning task needs before the domain sees them; true when consumed.
    func provisioningTakes(_ frame: Frame, at now: LinkMilliseconds, _ perform: ServiceActions) -> Bool {
        switch frame.message {
        case let .hello(hello):
            var copy = hello
            copy.nameBytes = ArraySlice(Array(hello.nameBytes))
            provisioning.lastHello = copy
            return false
        case let .ack(ack):
            return provisioningSaw(ack, at: now, perform)
        case let .bleAdvertisement(report):
            if case .learnBeacon? = provisioning.task?.kind {
                let identities = BeaconIdentities(address: report.address, addressType: report.addressType, data: report.data)
                if let preferred = identities.first { provisioning.sight(preferred) }
            }
            return false
        case let .nfcTag(report):
            guard let task = provisioning.task else { return false }
            switch task.kind {
            case .learnTag:
                learned(tag: report, at: now, perform)
                return true
            case let .writeTag(uri, _, written):
                if written { verify(report, uri: uri, at: now, perform) }
                // A tag tapped while waiting is not a driver's tap: the technician is writing.
                return true
            default:
                return false
            }
        default:
            return false
        }
    }

    /// A control client hung up before its answer: a task it waited for is cancelled.
    public func clientGone(_ client: ControlRequestID, at now: LinkMilliseconds, _ perform: ServiceActions) {
        guard let task = provisioning.task, task.client == client else { return }
        logger.notice("provisioning cancelled: the technician's command went away")
        finish(task, at: now, error: nil, answer: nil, perform)
    }

    /// Timeouts and the end of a beacon hold.
    func provisioningTick(at now: LinkMilliseconds, _ perform: ServiceActions) {
        guard let task = provisioning.task else { return }
        if case let .learnBeacon(holdMs) = task.kind {
            let present = ingest.monitor.presence.inRange(at: linkClock.peek(hostMs: now))
            var sightings: [ProvisioningDesk.Sighting] = []
            for index in task.candidates.indices {
                let candidate = task.candidates[index]
                let rssi = present.first { $0.identity == candidate.identity }?.smoothedRSSIDBm
                let isNear = (rssi ?? -127) >= ProvisioningDesk.nearRSSIDBm
                let since = isNear ? (candidate.nearSinceMs ?? now.value) : nil
                provisioning.task?.candidates[index].nearSinceMs = since
                sightings.append(.init(identity: candidate.identity, sightings: candidate.sightings, rssiDBm: rssi, nearForMs: since.map { now.value - $0 } ?? 0))
            }
            switch ProvisioningDesk.choose(sightings, holdMs: holdMs) {
            case let .chosen(identity, rssi):
                bindLearned(beacon: identity, rssi: rssi, task: task, at: now, perform)
                return
            case let .tooClose(a, b, ra, rb):
                finish(task, at: now, error: "two beacons are equally close (\(a.spec) at \(JSONLine.formatFixed(ra, decimals: 0)) dBm, \(b.spec) at \(JSONLine.formatFixed(rb, decimals: 0)) dBm); hold only one next to the dongle and try again", perform)
                return
            case let .none(strongest) where now.value >= task.deadlineMs:
                finish(task, at: now, error: "no beacon was held next to the dongle for the hold time before the timeout" + (strongest.map { " (strongest heard: \($0); needs \(Int(ProvisioningDesk.nearRSSIDBm)) dBm or more)" } ?? " (none heard)"), perform)
                return
            case .none:
                break
            }
        }
        guard now.value >= task.deadlineMs else { return }
        switch task.kind {
        case .learnTag: finish(task, at: now, error: "no tag was tapped within the timeout", perform)
        case .learnBeacon: break
        case let .writeTag(_, _, written):
            finish(task, at: now, error: written ? "the tag was written but not read back; tap it again to check it" : "the MCU did not answer the write in time", perform)
        case .bootloader: finish(task, at: now, error: "the MCU did not acknowledge BOOTLOADER (is the link up?)", feedback: false, perform)
        }
    }

    // MARK: steps

    private func learned(tag report: NFCTagReport, at now: LinkMilliseconds, _ perform: ServiceActions) {
        guard let task = provisioning.task, let driver = task.driverID else { return }
        guard let identities = try? NFCTagIdentities(technology: report.technology, uid: report.uid, ndef: report.ndef) else {
            finish(task, at: now, error: "the tag's UID (\(report.uid.count) bytes) is impossible for \(report.technology); try another tag", perform)
            return
        }
        // A tag carrying a driver URI is bound by its URI: it survives replacing the tag.
        let tag: TagIdentity = identities.driverID.map { .driver($0) } ?? .uid(identities.uid)
        do {
            let added = try records!.bind(tag: tag, to: driver)
            finish(task, at: now, error: nil, answer: "ok: \(added ? "bound" : "already bound:") tag \(tag) to \(task.driverName)\n", perform)
        } catch {
            finish(task, at: now, error: "\(error)", perform)
        }
    }

    private func bindLearned(beacon: BeaconIdentity, rssi: Double, task: ProvisioningDesk.Task, at now: LinkMilliseconds, _ perform: ServiceActions) {
        guard let driver = task.driverID else { return }
        do {
            let added = try records!.bind(beacon: beacon, to: driver)
            finish(task, at: now, error: nil, answer: "ok: \(added ? "bound" : "already bound:") beacon \(beacon.spec) (\(JSONLine.formatFixed(rssi, decimals: 0)) dBm) to \(task.driverName)\n", perform)
        } catch {
            finish(task, at: now, error: "\(error)", perform)
        }
    }

    private func provisioningSaw(_ ack: Ack, at now: LinkMilliseconds, _ perform: ServiceActions) -> Bool {
        guard let task = provisioning.task else { return false }
        switch task.kind {
        case let .writeTag(uri, seq, false) where seq == ack.ackedSeq:
            // The tracker may have given up on it already (the ACK comes at the write, not within 500 ms).
            tracker.acknowledge(ack) { _ in }
            switch ack.status {
            case .ok:
                provisioning.task?.kind = .writeTag(uri: uri, seq: seq, written: true)
                provisioning.task?.deadlineMs = now.value + 3_000
            case .timeout: finish(task, at: now, error: "no blank tag was presented within the timeout", perform)
            case .failed: finish(task, at: now, error: "the tag could not be written (read-only, or too small for the record); try another tag", perform)
            case .busy: finish(task, at: now, error: "the MCU is busy with another write; try again", perform)
            default: finish(task, at: now, error: "the MCU refused the write (\(ack.status.name))", perform)
            }
            return true
        case let .bootloader(seq) where seq == ack.ackedSeq:
            tracker.acknowledge(ack) { _ in }
            if ack.status == .ok {
                logger.notice("MCU in its bootloader: the link goes quiet until it is flashed or reset")
                finish(task, at: now, error: nil, answer: "ok: the MCU acknowledged BOOTLOADER and is resetting into its bootloader; run the vendor's flashing tool now\n", feedback: false, perform)
            } else {
                finish(task, at: now, error: "the MCU refused BOOTLOADER (\(ack.status.name))", feedback: false, perform)
            }
            return true
        default:
            return false
        }
    }

    private func verify(_ report: NFCTagReport, uri: DriverURI, at now: LinkMilliseconds, _ perform: ServiceActions) {
        guard let task = provisioning.task, let driver = task.driverID else { return }
        let identities = try? NFCTagIdentities(technology: report.technology, uid: report.uid, ndef: report.ndef)
        guard let identities, identities.driverID == uri.driverID else {
            finish(task, at: now, error: "the tag read back does not carry \(uri) (\(report.ndef.count) NDEF bytes); the write did not take", perform)
            return
        }
        do {
            _ = try records!.bind(tag: .driver(uri.driverID), to: driver)
            finish(task, at: now, error: nil, answer: "ok: wrote \(uri) to tag \(identities.uid), read it back, bound to \(task.driverName)\n", perform)
        } catch {
            finish(task, at: now, error: "\(error)", perform)
        }
    }

    private func startBootloader(from client: ControlRequestID, at now: LinkMilliseconds, _ perform: ServiceActions) -> ControlAnswer {
        if let busy = provisioning.busyDescription { return .now("error: busy \(busy)\n") }
        guard linkIsUp else { return .now("error: the MCU link is down\n") }
        guard let sent = tracker.send(.bootloader, at: now, { _ in }) else { return .now("error: the MCU's transmit queue is full; try again\n") }
        perform(.send(sent.wire))
        logger.notice("BOOTLOADER sent at a technician's request")
        provisioning.task = ProvisioningDesk.Task(
            kind: .bootloader(seq: sent.seq), client: client, driverID: nil, driverName: "", startedMs: now.value,
            deadlineMs: now.value + ProvisioningDesk.bootloaderAckTimeoutMs)
        return .later
    }

    /// Ends the task: the answer (or the error) to the waiting client, FEEDBACK, and the BLE filter back.
    private func finish(
        _ task: ProvisioningDesk.Task, at now: LinkMilliseconds, error: String?, answer: String? = nil, feedback: Bool = true,
        _ perform: ServiceActions
    ) {
        provisioning.task = nil
        provisioning.tasksDone += 1
        let text = answer ?? error.map { "error: \($0)\n" }
        if let error { logger.warning("provisioning: \(error)") } else if let answer { logger.notice("provisioning: \(answer.dropLast())") }
        if feedback { send(.feedback(error == nil && answer != nil ? .accepted : .rejected), at: now, perform) }
        if let text { perform(.complete(task.client, answer: text)) }
        switch task.kind {
        case .bootloader: break
        default:
            // New bindings reach the domain, and learn-beacon's open filter closes again.
            if answer != nil || { if case .learnBeacon = task.kind { true } else { false } }() { reloadProvisioning(at: now, perform) }
        }
    }

    /// HELLO's fields and the link state, for `fairfuel mcu info`.
    func mcuInfoJSON() -> String {
        var json = JSONLine()
        json.add("link", linkIsUp ? "up" : "down")
        json.add("port", settings.port)
        if let hello = provisioning.lastHello {
            json.add("name", hello.name)
            json.add("firmware", hello.firmwareVersion)
            json.add("board_id", String(format4Hex: hello.boardID))
            json.addRaw("capabilities", json: JSONLine.array(hello.capabilities.names.map { name in
                var quoted = ""
                JSONLine.appendQuoted(name, to: &quoted)
                return quoted
            }))
            json.add("capabilities_raw", Int(hello.capabilities.rawValue))
            json.add("uptime_ms_at_hello", Int64(hello.uptimeMs))
        }
        json.add("mcu_board", settings.mcuBoard)
        return json.string
    }

    /// Whether `seq` is the NFC_WRITE waiting for its tag: its ACK comes at the write, not within the resends.
    func provisioningAwaitsLateAck(_ seq: UInt16) -> Bool {
        if case let .writeTag(_, waiting, false)? = provisioning.task?.kind { return waiting == seq }
        return false
    }
}

extension String {
    /// `0x` and four upper-case hex digits.
    init(format4Hex value: UInt16) {
        let hex = String(value, radix: 16, uppercase: true)
        self = "0x" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
