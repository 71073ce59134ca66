import FairFuelCore
import FairFuelLink
import FairFuelParsers
import FairFuelSimulation
import Testing

/// The virtual MCU on a real pseudo-terminal, checked against PROTOCOL.md from the host's side.
@Suite(.serialized) struct VirtualMCUProtocolTests {
    static let annaUUID: [UInt8] = UUID128("e2c56db5-dffb-48d2-b060-d0f5a71096e0")!.bytes

    /// Anna stands next to the parked car with two strangers' iBeacons and two phones around;
    /// the GNSS receiver is always on.
    static let crowd = SimFixture.header.replacingOccurrences("day 1", with: "gnss keep-alive always\nday 1") + """
        08:00:02 near Anna for 30 min range 2 m
        08:00:02 strangers ibeacon x2 for 30 min range 3 m
        08:00:02 strangers phone x2 for 30 min range 3 m
        08:00:02 strangers eddystone for 30 min range 3 m
        08:30 end
        """

    @Test func answersHelloRequestWithHello() throws {
        let running = try SimFixture.Running(try SimFixture.inline(Self.crowd), options: VirtualMCUOptions(speed: 5))
        defer { _ = try? running.finish() }
        let boot = try #require(running.host.next { $0.message.hello != nil })
        #expect(boot.frame.seq == 0)
        let hello = try #require(boot.frame.message.hello)
        #expect(hello.boardID == 0x0101)
        #expect(hello.firmwareVersion == "1.4.2")
        #expect(hello.capabilities == [.nfcReader, .bleScanner, .gnss, .nfcWrite, .ignitionSense, .reliableEvents])
        #expect(hello.name == "FairFuel MCU rev B")
        #expect(hello.uptimeMs == 250)

        let (seq, _) = try running.host.send(.helloRequest(HelloRequest(hostMajor: 1, hostMinor: 0)))
        let ack = try #require(running.host.next { $0.message.ack != nil })
        #expect(ack.frame.message.ack == Ack(ackedSeq: seq, status: .ok))
        let answer = try #require(running.host.next { $0.message.hello != nil })
        #expect(answer.frame.seq > 0)  // no reset: the MCU's seq goes on
        let answered = try #require(answer.frame.message.hello)
        // Uptime goes on (never back): an answer in the same simulated millisecond as the boot
        // HELLO carries the same uptime, as a real MCU's would (this once failed as `>`, when the
        // host answered within a fifth of a real millisecond at speed 5). A reset is the seq above.
        #expect(answered.uptimeMs >= hello.uptimeMs,
                "answer seq \(answer.frame.seq) uptime \(answered.uptimeMs) ms after boot uptime \(hello.uptimeMs) ms")
        #expect(running.host.decoder.counters.errorTotal == 0)
    }

    @Test func heartbeatsComeOncePerSimulatedSecond() throws {
        let speed = 40.0
        let running = try SimFixture.Running(try SimFixture.inline(Self.crowd), options: VirtualMCUOptions(speed: speed))
        let clock = ContinuousClock()
        let start = clock.now
        running.host.pump(milliseconds: 1500)
        let elapsed = (clock.now - start).milliseconds
        try running.finish()
        let beats = running.host.received.compactMap { $0.frame.message.heartbeat }
        #expect(beats.count > 20)
        for (a, b) in zip(beats, beats.dropFirst()) {
            #expect(b.uptimeMs &- a.uptimeMs == 1000)
            #expect(b.supplyMillivolts > 11_000 && b.supplyMillivolts < 13_200)
            #expect(!b.ignitionOn)
        }
        // Simulated seconds follow real time times the speed.
        let expected = elapsed * speed / 1000
        #expect(Double(beats.count) > expected * 0.6 && Double(beats.count) < expected * 1.2, "\(beats.count) beats, expected about \(expected)")
        #expect(abs(Double(beats.count) - Double(running.mcu.simulatedMs) / 1000) <= 8)
    }

    @Test func aScriptedTapArrivesAsNFCTagThenIgnitionAndNMEA() throws {
        let running = try SimFixture.Running(try SimFixture.shipped("short-drive.scenario"), options: VirtualMCUOptions(speed: 300))
        defer { _ = try? running.finish() }
        let tagFrame = try #require(running.host.next(timeoutMs: 5000) { $0.message.nfcTag != nil })
        let tag = try #require(tagFrame.frame.message.nfcTag)
        #expect(Array(tag.uid) == [0x04, 0xA2, 0x2B, 0x7A, 0x3C, 0x5D, 0x80])
        #expect(tag.technology == .iso14443A)
        #expect(tag.atqa == 0x0044)
        #expect(tag.sak == 0x00)
        let uri = try #require(DriverURI("fairfuel://driver/3f2a1b4c-5d6e-4f70-8192-a3b4c5d6e7f8"))
        #expect(Array(tag.ndef) == uri.ndefMessage)
        // Tapped at 08:00:06 local: 66 s after the 07:59 start and 250 ms boot, uptime 66 000.
        #expect(tag.mcuTimeMs == 66_000)

        let power = try #require(running.host.next { $0.message.power != nil }?.frame.message.power)
        #expect(power.ignitionOn)
        #expect(power.mcuTimeMs == 72_000)
        let beat = try #require(running.host.next { $0.message.heartbeat != nil }?.frame.message.heartbeat)
        #expect(beat.ignitionOn)

        // NMEA: valid sentences whose UTC follows simulated time (08:00 local is 07:00 UTC).
        var parser = NMEADecoder()
        var checked = 0
        while checked < 12, let item = running.host.next(where: { $0.message.nmeaSentence?.contains("RMC,") == true }) {
            guard case .nmea(let report) = item.frame.message else { continue }
            guard let sentence = parser.decode(report.sentence), case .rmc(let rmc) = sentence else {
                Issue.record("undecodable: \(report.sentenceText)")
                break
            }
            let utc = try #require(rmc.time).milliseconds
            let simulated = Int64(report.mcuTimeMs)  // uptime 250 at the HELLO, 250 ms after the start
            let expectedUTC = (6 * 3_600_000 + 59 * 60_000 + simulated) % 86_400_000  // 06:59 UTC start
            #expect(abs(Int64(utc) - expectedUTC) < 400, "\(report.sentenceText) at uptime \(report.mcuTimeMs)")
            checked += 1
        }
        #expect(checked == 12)
        #expect(running.host.decoder.counters.errorTotal == 0)
    }

    @Test func bleFilterIsHonoured() throws {
        let running = try SimFixture.Running(try SimFixture.inline(Self.crowd), options: VirtualMCUOptions(speed: 20))
        defer { _ = try? running.finish() }
        let host = running.host
        host.pump(milliseconds: 600)
        let before = host.received.compactMap { $0.frame.message.advertisement }
        let addresses = Set(before.map(\.address))
        #expect(addresses.count >= 5, "\(addresses.count) advertisers heard")
        let annaAds = before.filter { Self.carries(Self.annaUUID, $0) }
        #expect(!annaAds.isEmpty)
        // Two metres outside the car: about -73 dBm, spread by shadowing and fading.
        let sorted = annaAds.map(\.rssiDBm).sorted()
        #expect(sorted[sorted.count / 2] > -88 && sorted[sorted.count / 2] < -60, "\(sorted)")
        #expect(sorted.allSatisfy { $0 >= -100 })
        let phone = try #require(before.first { $0.address.topBits == 0b01 })  // a resolvable private address
        #expect(phone.addressType == .random)

        func adsAfterAck(of message: LinkMessage) throws -> [BLEAdvertisementReport] {
            let (seq, _) = try host.send(message)
            let ack = try #require(host.next { $0.message.ack?.ackedSeq == seq })
            #expect(ack.frame.message.ack?.status == .ok)
            let mark = host.received.count
            host.pump(milliseconds: 400)
            return host.received[mark...].compactMap { $0.frame.message.advertisement }
        }

        let onlyAnna = try adsAfterAck(of: .bleFilter(BLEFilter(entries: [.iBeaconUUID(Self.annaUUID)])))
        #expect(!onlyAnna.isEmpty)
        #expect(onlyAnna.allSatisfy { Self.carries(Self.annaUUID, $0) })

        let stranger = try #require(before.first { !Self.carries(Self.annaUUID, $0) && $0.address.topBits == 0b11 })
        let onlyStranger = try adsAfterAck(of: .bleFilter(BLEFilter(entries: [.address(stranger.address.bytes)])))
        #expect(onlyStranger.allSatisfy { $0.address == stranger.address })

        let none = try adsAfterAck(of: .bleFilter(BLEFilter(entries: [.eddystoneNamespace([UInt8](repeating: 0x42, count: 10))])))
        #expect(none.isEmpty)

        let all = try adsAfterAck(of: .bleFilter(BLEFilter(entries: [])))
        #expect(Set(all.map(\.address)).count >= 4)
        #expect(running.mcu.events.contains { $0.kind == .bleFilter(entries: 0) })
    }

    @Test func everyCommandIsAcknowledgedWithin500SimulatedMilliseconds() throws {
        let speed = 4.0
        let running = try SimFixture.Running(try SimFixture.inline(Self.crowd), options: VirtualMCUOptions(speed: speed))
        defer { _ = try? running.finish() }
        let host = running.host
        _ = try #require(host.next { $0.message.hello != nil })
        var seq: UInt16 = 100
        let cases: [(name: String, bytes: (UInt16) throws -> [UInt8], status: Ack.Status)] = [
            ("HELLO_REQ", { try FrameEncoder.encode(.helloRequest(HelloRequest(hostMajor: 1, hostMinor: 0)), seq: $0) }, .ok),
            ("BLE_FILTER", { try FrameEncoder.encode(.bleFilter(BLEFilter(entries: [])), seq: $0) }, .ok),
            ("FEEDBACK", { try FrameEncoder.encode(.feedback(.accepted), seq: $0) }, .ok),
            ("FEEDBACK pattern 9", { FrameEncoder.encodeRaw(type: 0xA1, seq: $0, payload: [9]) }, .badPayload),
            ("BOOTLOADER bad magic", { FrameEncoder.encodeRaw(type: 0xB0, seq: $0, payload: [1, 2, 3, 4]) }, .badPayload),
            ("HELLO_REQ too short", { FrameEncoder.encodeRaw(type: 0x81, seq: $0, payload: [1]) }, .badPayload),
            ("BLE_FILTER count 17", { FrameEncoder.encodeRaw(type: 0x90, seq: $0, payload: [17]) }, .badPayload),
            ("unknown type 0x99", { FrameEncoder.encodeRaw(type: 0x99, seq: $0, payload: [1, 2]) }, .unknownType),
            ("HEARTBEAT from the host", { FrameEncoder.encodeRaw(type: 0x02, seq: $0, payload: [UInt8](repeating: 0, count: 9)) }, .unknownType),
        ]
        for command in cases {
            seq += 1
            let sent = ContinuousClock.now
            try host.sendRaw(try command.bytes(seq))
            let ack = try #require(host.next(timeoutMs: 2000) { $0.message.ack?.ackedSeq == seq }, "\(command.name): no ACK")
            #expect(ack.frame.message.ack?.status == command.status, "\(command.name)")
            let simulatedLatency = (ack.at - sent).milliseconds * speed
            #expect(simulatedLatency <= 500, "\(command.name): ACK after \(simulatedLatency) simulated ms")
        }
        #expect(running.mcu.feedback.map(\.pattern) == [.accepted])
    }

    @Test func aDuplicateIsAcknowledgedAgainButNotRedone() throws {
        let running = try SimFixture.Running(try SimFixture.inline(Self.crowd), options: VirtualMCUOptions(speed: 10))
        defer { _ = try? running.finish() }
        let host = running.host
        _ = try #require(host.next { $0.message.hello != nil })
        let (seq, _) = try host.send(.feedback(.sessionStarted))
        _ = try #require(host.next { $0.message.ack?.ackedSeq == seq })
        // The host's resend: the same frame, the same seq.
        try host.send(.feedback(.sessionStarted), seq: seq)
        let again = try #require(host.next { $0.message.ack?.ackedSeq == seq })
        #expect(again.frame.message.ack?.status == .ok)
        host.pump(milliseconds: 200)
        #expect(host.received.filter { $0.frame.message.ack?.ackedSeq == seq }.count == 2)
        #expect(running.mcu.feedback.count == 1)
        #expect(running.mcu.feedback.first?.pattern == .sessionStarted)
        #expect(running.mcu.feedback.first?.seq == seq)
        #expect(running.mcu.statistics.duplicatesReacked == 1)
        #expect(running.mcu.statistics.hostCounters.duplicate == 1)
        // The next new command is executed as usual.
        let (next, _) = try host.send(.feedback(.sessionEnded))
        _ = try #require(host.next { $0.message.ack?.ackedSeq == next })
        #expect(running.mcu.feedback.map(\.pattern) == [.sessionStarted, .sessionEnded])
    }

    @Test func nfcWriteSucceedsTimesOutAndFails() throws {
        let speed = 60.0
        let running = try SimFixture.Running(try SimFixture.shipped("provisioning.scenario"), options: VirtualMCUOptions(speed: speed))
        defer { _ = try? running.finish() }
        let host = running.host
        _ = try #require(host.next { $0.message.hello != nil })
        let uri = try #require(DriverURI("fairfuel://driver/0f8fad5b-d9cb-469f-a165-70867728950e"))

        // Waits for the blank tag presented at 09:01; a second write meanwhile is busy.
        let (write, _) = try host.send(.nfcWrite(NFCWrite(timeoutSeconds: 120, ndef: uri.ndefMessage[...])))
        let (busy, _) = try host.send(.nfcWrite(NFCWrite(timeoutSeconds: 10, ndef: [0xD0, 0, 0][...])))
        #expect(host.next { $0.message.ack?.ackedSeq == busy }?.frame.message.ack?.status == .busy)
        let done = try #require(host.next(timeoutMs: 4000) { $0.message.ack?.ackedSeq == write })
        #expect(done.frame.message.ack?.status == .ok)
        let written = try #require(host.next { $0.message.nfcTag != nil }?.frame.message.nfcTag)
        #expect(Array(written.uid) == [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66])
        #expect(Array(written.ndef) == uri.ndefMessage)

        // No tag within 5 s: ACK 5 after about five simulated seconds.
        let sent = ContinuousClock.now
        let (lonely, _) = try host.send(.nfcWrite(NFCWrite(timeoutSeconds: 5, ndef: uri.ndefMessage[...])))
        let timeout = try #require(host.next(timeoutMs: 4000) { $0.message.ack?.ackedSeq == lonely })
        #expect(timeout.frame.message.ack?.status == .timeout)
        let waited = (timeout.at - sent).milliseconds * speed
        #expect(waited > 4000 && waited < 15_000, "timed out after \(waited) simulated ms")

        // 09:02 a blank NTAG215 is read as it is (no write waits); 09:03 Anna's fob; the write
        // waiting after that meets the read-only tag of 09:04: ACK 4. This host sends no EVENT_ACK
        // and no FEEDBACK, so each read comes with copies and the tapper's second tries, all
        // within seconds of it: the next read is the next one a minute on.
        func read(after earlier: NFCTagReport) -> NFCTagReport? {
            host.next(timeoutMs: 4000) { ($0.message.nfcTag?.mcuTimeMs).map { $0 &- earlier.mcuTimeMs > 30_000 } ?? false }?.frame.message.nfcTag
        }
        let blank = try #require(read(after: written))
        #expect(blank.ndef.isEmpty)
        let anna = try #require(read(after: blank))
        #expect(Array(anna.uid) == [0x04, 0xA2, 0x2B, 0x7A, 0x3C, 0x5D, 0x80])
        // Anna heard no beep: she taps twice more, 3 and 6 s on; the write must wait for the next tag.
        host.pump(milliseconds: Int(10_000 / speed) + 20)
        let (failing, _) = try host.send(.nfcWrite(NFCWrite(timeoutSeconds: 90, ndef: uri.ndefMessage[...])))
        #expect(host.next(timeoutMs: 4000) { $0.message.ack?.ackedSeq == failing }?.frame.message.ack?.status == .failed)
        #expect(running.mcu.events.contains { if case .tagWritten = $0.kind { return true } else { return false } })
    }

    @Test func aRebootBringsANewHelloWithSeqZero() throws {
        let scenario = try SimFixture.inline(SimFixture.header + "08:00:20 reboot\n08:05 end\n")
        let running = try SimFixture.Running(scenario, options: VirtualMCUOptions(speed: 20))
        defer { _ = try? running.finish() }
        let host = running.host
        let first = try #require(host.next { $0.message.hello != nil })
        #expect(first.frame.seq == 0)
        let second = try #require(host.next(timeoutMs: 4000) { $0.message.hello != nil })
        #expect(second.frame.seq == 0)
        // 250 ms of boot; at 20x the host's clock sees 1/20 of it, the uptime carries the rest.
        let uptime = try #require(second.frame.message.hello?.uptimeMs)
        #expect(uptime == 250 + 238, "HELLO uptime \(uptime)")
        let beat = try #require(host.next { $0.message.heartbeat != nil })
        #expect(beat.frame.seq == 1)
        #expect(beat.frame.message.heartbeat?.uptimeMs == 1000)
        #expect(host.decoder.counters.errorTotal == 0)  // a HELLO restarts the host's sequence check
    }

    @Test func bootloaderAcksGoesSilentAndBootsAgain() throws {
        let speed = 20.0
        let running = try SimFixture.Running(try SimFixture.inline(Self.crowd), options: VirtualMCUOptions(speed: speed))
        defer { _ = try? running.finish() }
        let host = running.host
        _ = try #require(host.next { $0.message.hello != nil })
        let (seq, _) = try host.send(.bootloader)
        let ack = try #require(host.next { $0.message.ack?.ackedSeq == seq })
        #expect(ack.frame.message.ack?.status == .ok)
        let hello = try #require(host.next(timeoutMs: 3000) { $0.message.hello != nil })
        #expect(hello.frame.seq == 0)
        let silence = (hello.at - ack.at).milliseconds * speed
        #expect(silence > 7000, "silent for \(silence) simulated ms")
        let between = host.received.filter { $0.at > ack.at && $0.at < hello.at }
        #expect(between.isEmpty)
        #expect(running.mcu.events.contains { $0.kind == .bootloader })
    }

    @Test func lineNoiseIsCountedWhileFramesStillArrive() throws {
        let text = Self.crowd.replacingOccurrences("title test", with: "title noisy\nnoise 0.5 %")
        var options = VirtualMCUOptions(speed: 100)
        options.transmitBufferBytes = 1 << 20  // no drops on a loaded machine: only noise shows
        let running = try SimFixture.Running(try SimFixture.inline(text), options: options)
        running.host.pump(milliseconds: 1500)
        let report = try running.finish()
        running.host.pump(milliseconds: 100)
        let counters = running.host.decoder.counters
        let sent = report.statistics.framesSent
        let corrupted = report.statistics.framesCorrupted
        #expect(sent > 300)
        let share = Double(corrupted) / Double(sent)
        // 0.5 % of bytes in frames of 30 to 90 bytes: 14 % to 36 % of frames hit.
        #expect(share > 0.1 && share < 0.45, "\(corrupted) of \(sent) frames corrupted")
        let rejected = counters.cobsError + counters.crcError + counters.oversize + counters.badVersion
            + counters.unknownType + counters.badPayload
        // Each hit frame is rejected once (two merged by a lost delimiter count once; a split one twice).
        #expect(Double(rejected) > Double(corrupted) * 0.6 && Double(rejected) < Double(corrupted) * 1.5 + 3,
            "\(rejected) rejected for \(corrupted) corrupted: \(counters)")
        #expect(counters.lost > 0)
        #expect(Double(counters.frames) > Double(sent - 2 * corrupted) * 0.95)
        #expect(counters.frames + UInt64(report.statistics.framesDropped) <= UInt64(sent))
    }

    @Test func unplugReplacesThePortBehindAStableLink() throws {
        let directory = SimTestFiles.temporaryDirectory()
        let link = directory + "/mcu"
        let scenario = try SimFixture.inline(Self.crowd.replacingOccurrences("08:30 end", with: "08:00:10 unplug 5 s\n08:30 end"))
        var options = VirtualMCUOptions(speed: 10, linkPath: link)
        options.transmitBufferBytes = 4096
        let running = try SimFixture.Running(scenario, options: options)
        defer {
            _ = try? running.finish()
            SimTestFiles.remove(directory)
        }
        #expect(try running.mcu.start() == link)
        let firstDevice = try #require(running.mcu.devicePath)
        #expect(SimTestFiles.linkTarget(link) == firstDevice)
        _ = try #require(running.host.next { $0.message.hello != nil })
        running.host.pump(milliseconds: 1500)
        #expect(running.host.disconnected)
        // The link comes back pointing at a new pseudo-terminal.
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(3))
        while clock.now < deadline && (running.mcu.devicePath == firstDevice || SimTestFiles.linkTarget(link) == nil) {
            SimTestFiles.sleep(milliseconds: 20)
        }
        let secondDevice = try #require(running.mcu.devicePath)
        #expect(secondDevice != firstDevice)
        #expect(SimTestFiles.linkTarget(link) == secondDevice)
        let again = try HostLink(path: link)
        defer { again.close() }
        let hello = try #require(again.next(timeoutMs: 3000) { $0.message.hello != nil })
        #expect(hello.frame.seq == 0)
        #expect(running.mcu.events.contains { $0.kind == .unplugged })
    }

    static func carries(_ uuid: [UInt8], _ ad: BLEAdvertisementReport) -> Bool {
        let data = Array(ad.data)
        guard data.count >= 25 else { return false }
        for start in 0...(data.count - 16) where Array(data[start..<(start + 16)]) == uuid { return true }
        return false
    }
}

extension String {
    func replacingOccurrences(_ target: String, with replacement: String) -> String {
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
