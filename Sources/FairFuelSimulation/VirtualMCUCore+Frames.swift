import FairFuelCore
import FairFuelLink
import FairFuelParsers

/// What the virtual MCU sends (frames, garbage, GNSS epochs) and how it resets.
extension VirtualMCUCore {
    // MARK: frames

    /// Frames `message` for the line; returns its seq (nil if it could not be framed).
    @discardableResult
    mutating func send(_ message: LinkMessage, at time: Int64, into out: inout [Output]) -> UInt16? {
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
    mutating func sendEvent(_ message: LinkMessage, at time: Int64, into out: inout [Output]) {
        guard let seq = send(message, at: time, into: &out) else { return }
        let dropped = reliable.sent(message, seq: seq, at: time)
        if dropped > 0 { noteDropped(dropped) }
    }

    mutating func sendHello(at time: Int64, into out: inout [Output]) {
        send(generator.hello(uptimeMs: uptime(at: time)), at: time, into: &out)
        reliable.helloSent()
    }

    mutating func emitGarbage(_ bytes: [UInt8], at time: Int64, into out: inout [Output]) {
        statistics.garbageBursts += 1
        statistics.garbageBytes += bytes.count
        events.append(SimEvent(simMs: time, kind: .garbage(bytes: bytes.count)))
        out.append(.bytes(bytes, frameType: nil))
    }

    mutating func emitEpoch(at time: Int64, into out: inout [Output]) {
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
    mutating func scheduleEpoch(after time: Int64) {
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
    mutating func supply(at time: Int64) -> UInt16 {
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

    mutating func enterSilence(_ state: Power, at time: Int64) {
        if offSinceMs == nil { offSinceMs = time }
        power = state
        nextHeartbeat = nil
        nextEpoch = nil
        pendingWrite = nil
        decoder.restartStream()
        heldWhileBooting.removeAll()
    }

    mutating func reset(at time: Int64, reason: String) {
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
