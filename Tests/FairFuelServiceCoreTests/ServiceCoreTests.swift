import FairFuelCore
import FairFuelDomain
import FairFuelLink
import FairFuelParsers
import FairFuelServiceCore
import Foundation
import Testing

/// The core's events one at a time, with frames made here and an injected clock (plain
/// numbers): the link's life, commands and their resends, control requests, learn mode.
@Suite struct ServiceCoreTests {
    static let annaTag: [UInt8] = [0x04, 0xA2, 0x2B, 0x7A, 0x3C, 0x5D, 0x80]
    static let newTag: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]

    /// A core with Anna provisioned (tag only), the actions it asked for, and an MCU's sequence numbers.
    final class Bench {
        let records: MemoryProvisioningRecords
        let log = LogCapture(minimumLevel: .debug)
        let core: ServiceCore
        var sent: [Frame] = []
        var stored: [DomainOutput] = []
        var completed: [(ControlRequestID, String)] = []
        var retries = 0
        var provisioningChanges = 0
        var reopenRequests = 0
        var linkErrorSummaries: [(counts: LinkCounters, at: LinkMilliseconds)] = []
        /// What the core told the uplink, in order: `driver NAME`, `driver none`, `records queued`.
        var uplinkChanges: [String] = []
        private var encoder = FrameEncoder()

        /// `annaBeacon`: Anna's fob, provisioned as a technician would (nil: tag only).
        init(settings: ServiceCoreSettings = ServiceCoreSettings(port: "/dev/ttyTEST"), annaBeacon: BeaconIdentity? = nil) throws {
            var directory = DriverDirectory()
            directory.addDriver(.init(id: DriverID(1), name: "Anna"))
            directory.bind(tag: .uid(try TagUID(bytes: ServiceCoreTests.annaTag[...])), to: DriverID(1))
            if let annaBeacon { directory.bind(beacon: annaBeacon, to: DriverID(1)) }
            records = MemoryProvisioningRecords(directory: directory, vehicle: .familyCar)
            core = try ServiceCore(settings: settings, directory: directory, vehicle: .familyCar, records: records, logger: log.logger)
        }

        func perform(_ action: ServiceAction) {
            switch action {
            case let .send(wire):
                var decoder = FrameDecoder(sender: .host)
                decoder.decode(wire) { output in
                    if case let .frame(frame) = output { sent.append(Frame(seq: frame.seq, message: frame.message)) }
                }
            case let .record(output): stored.append(output)
            case .retryStoreWrites: retries += 1
            case let .complete(client, answer): completed.append((client, answer))
            case .provisioningChanged: provisioningChanges += 1
            case .reopenLink: reopenRequests += 1
            case let .recordLinkErrors(counts, at): linkErrorSummaries.append((counts, at))
            case let .driverChanged(name): uplinkChanges.append("driver \(name ?? "none")")
            case .recordsQueued: uplinkChanges.append("records queued")
            case .enforceRetention, .status: break
            }
        }

        /// The MCU sends `message` at host time `ms`.
        func mcu(_ message: LinkMessage, at ms: Int64) {
            let wire = try! encoder.encode(message)
            core.received(wire[...], at: LinkMilliseconds(ms)) { perform($0) }
        }

        func open(at ms: Int64 = 0) {
            core.linkOpened(opener: "libserialport", message: "opened", at: LinkMilliseconds(ms)) { perform($0) }
        }

        func pass(to ms: Int64) { core.timePassed(at: LinkMilliseconds(ms)) { perform($0) } }

        func control(_ request: String, client: UInt64 = 7, at ms: Int64) -> ControlAnswer {
            core.control(request, from: ControlRequestID(rawValue: client), at: LinkMilliseconds(ms)) { perform($0) }
        }

        /// The seq the MCU acknowledges for the last command of `type` sent.
        func lastSeq(of type: UInt8) -> UInt16? { sent.last { $0.message.rawType == type }?.seq }

        func hello(at ms: Int64, uptimeMs: UInt32 = 1_000, capabilities: MCUCapabilities = [.nfcReader, .bleScanner, .gnss, .nfcWrite]) {
            mcu(.hello(Hello(firmwareMajor: 1, firmwareMinor: 2, firmwarePatch: 0, boardID: 0x0002, capabilities: capabilities,
                             uptimeMs: uptimeMs, name: "bench")), at: ms)
        }

        func tap(_ uid: [UInt8], at ms: Int64, mcuTimeMs: UInt32) {
            mcu(.nfcTag(NFCTagReport(mcuTimeMs: mcuTimeMs, technology: .iso14443A, atqa: 0x0044, sak: 0, uid: uid[...], ndef: [])), at: ms)
        }
    }

    @Test func openingTheLinkAsksForHelloAndSendsTheBeaconFilter() throws {
        let bench = try Bench()
        #expect(bench.core.wantsLink(at: LinkMilliseconds(0)))
        bench.open()
        #expect(!bench.core.wantsLink(at: LinkMilliseconds(0)))
        #expect(bench.sent.map(\.message.rawType) == [FrameType.helloRequest.rawValue, FrameType.bleFilter.rawValue])
        // Nothing acknowledged: each command is sent again (same seq) three times, then given up, said so once each.
        for ms in stride(from: 100, through: 3_000, by: 100) { bench.pass(to: Int64(ms)) }
        #expect(bench.sent.count == 8)
        #expect(Set(bench.sent.filter { $0.message.rawType == FrameType.helloRequest.rawValue }.map(\.seq)).count == 1)
        #expect(bench.log.all.filter { $0.contains("did not acknowledge") }.count == 2)
    }

    @Test func anAcknowledgedCommandIsNotSentAgain() throws {
        let bench = try Bench()
        bench.open()
        for type in [FrameType.helloRequest.rawValue, FrameType.bleFilter.rawValue] {
            bench.mcu(.ack(Ack(ackedSeq: try #require(bench.lastSeq(of: type)), status: .ok)), at: 50)
        }
        for ms in stride(from: 100, through: 3_000, by: 100) { bench.pass(to: Int64(ms)) }
        #expect(bench.sent.count == 2)
        #expect(!bench.log.contains("did not acknowledge"))
    }

    @Test func aLostLinkIsRetriedWithADoublingBackoffAndNothingIsSentMeanwhile() throws {
        var settings = ServiceCoreSettings(port: "/dev/ttyTEST")
        settings.reconnectBackoffMinMs = 100
        settings.reconnectBackoffMaxMs = 400
        let bench = try Bench(settings: settings)
        bench.open()
        bench.core.linkLost("I/O error", at: LinkMilliseconds(1_000))
        #expect(!bench.core.linkIsUp)
        #expect(!bench.core.wantsLink(at: LinkMilliseconds(1_099)))
        #expect(bench.core.wantsLink(at: LinkMilliseconds(1_100)))
        #expect(bench.core.millisecondsUntilWork(at: LinkMilliseconds(1_050)) <= 50)
        // Attempts that fail wait twice as long each time, up to the maximum; one log line for one cause.
        var at: Int64 = 1_100
        var waits: [Int64] = []
        for _ in 0..<4 {
            bench.core.linkOpenFailed("no such device", at: LinkMilliseconds(at))
            var next = at
            while !bench.core.wantsLink(at: LinkMilliseconds(next)) { next += 10 }
            waits.append(next - at)
            at = next
        }
        #expect(waits == [100, 200, 400, 400])
        #expect(bench.log.all.filter { $0.contains("MCU link down: no such device") }.count == 1)
        let before = bench.sent.count
        bench.core.endSession(at: LinkMilliseconds(at)) { bench.perform($0) }
        #expect(bench.sent.count == before)
        // Opened again: the backoff starts from its minimum.
        bench.open(at: at)
        #expect(bench.core.reconnects == 1)
        bench.core.linkLost("unplugged", at: LinkMilliseconds(at + 10))
        #expect(bench.core.wantsLink(at: LinkMilliseconds(at + 110)))
    }

    @Test func aTapStartsASessionAndSessionEndEndsIt() throws {
        let bench = try Bench()
        bench.open()
        bench.hello(at: 10)
        bench.tap(Self.annaTag, at: 1_000, mcuTimeMs: 2_000)
        let started = bench.stored.contains { if case .sessionStarted(DriverID(1), _) = $0 { true } else { false } }
        #expect(started)
        #expect(bench.sent.contains { $0.message.rawType == FrameType.feedback.rawValue })
        #expect(bench.log.contains("session started: Anna"))
        #expect(bench.control("session end", at: 5_000) == .now("ok: session ended\n"))
        let ended = bench.stored.contains { if case let .sessionEnded(record) = $0 { record.driver == DriverID(1) } else { false } }
        #expect(ended)
        #expect(bench.control("session end", at: 6_000) == .now("ok: no session was open\n"))
        // The uplink's driver state follows the session, and a closed trip has the outbox read.
        #expect(bench.uplinkChanges == ["driver Anna", "driver none", "records queued"])
        #expect(bench.control("bogus", at: 6_000) == .now("error: unknown request 'bogus' (status, session end, reload)\n"))
    }

    @Test func anUnknownTagIsRejectedAndNamedInTheLog() throws {
        let bench = try Bench()
        bench.open()
        bench.hello(at: 10)
        bench.tap(Self.newTag, at: 1_000, mcuTimeMs: 2_000)
        #expect(bench.log.contains("unknown tag 04:11:22:33:44:55:66 rejected") || bench.log.contains("unknown tag 04112233445566 rejected"))
        #expect(!bench.stored.contains { if case .sessionStarted = $0 { true } else { false } })
    }

    @Test func learnModeBindsTheNextTagAndAnswersTheWaitingClient() throws {
        let bench = try Bench()
        bench.open()
        bench.hello(at: 10)
        #expect(bench.control("learn-tag 5 Anna", client: 42, at: 100) == .later)
        // Busy: a second technician's request is refused now.
        if case let .now(busy) = bench.control("learn-tag 5 Anna", client: 43, at: 200) {
            #expect(busy.hasPrefix("error: busy learning a tag for Anna"))
        } else {
            Issue.record("a second request while learning must be refused at once")
        }
        bench.tap(Self.newTag, at: 1_000, mcuTimeMs: 2_000)
        let answer = try #require(bench.completed.first)
        #expect(answer.0 == ControlRequestID(rawValue: 42))
        #expect(answer.1.hasPrefix("ok: bound tag"))
        #expect(bench.records.stored.tags.count == 2)
        // The learnt tap is the technician's, not a driver's: no session; the new binding reached the domain.
        #expect(!bench.stored.contains { if case .sessionStarted = $0 { true } else { false } })
        #expect(bench.provisioningChanges == 1)
        #expect(bench.core.directory.tags.count == 2)
        bench.tap(Self.newTag, at: 9_000, mcuTimeMs: 10_000)
        #expect(bench.stored.contains { if case .sessionStarted(DriverID(1), _) = $0 { true } else { false } })
    }

    @Test func learnModeTimesOutAndAHungUpClientCancels() throws {
        let bench = try Bench()
        bench.open()
        bench.hello(at: 10)
        #expect(bench.control("learn-tag 2 Anna", client: 1, at: 100) == .later)
        bench.pass(to: 2_099)
        #expect(bench.completed.isEmpty)
        bench.pass(to: 2_100)
        #expect(bench.completed.map(\.1) == ["error: no tag was tapped within the timeout\n"])
        #expect(bench.control("learn-tag 9 Anna", client: 2, at: 3_000) == .later)
        bench.core.clientGone(ControlRequestID(rawValue: 2), at: LinkMilliseconds(3_500)) { bench.perform($0) }
        #expect(bench.log.contains("provisioning cancelled"))
        #expect(bench.control("learn-tag 9 Nobody", client: 3, at: 4_000) == .now("error: no driver named 'Nobody'\n"))
        #expect(bench.control("learn-tag 0 Anna", client: 3, at: 4_000) == .now("error: usage: learn-tag TIMEOUT_S DRIVER (seconds 1 to 255)\n"))
    }

    @Test func provisioningNeedsTheLink() throws {
        let bench = try Bench()
        #expect(bench.control("learn-tag 5 Anna", at: 0) == .now("error: the MCU link is down; provisioning needs the dongle's MCU\n"))
        #expect(bench.control("mcu bootloader", at: 0) == .now("error: the MCU link is down\n"))
    }

    @Test func aReloadTakesNewDriversAndANewCalibration() throws {
        let bench = try Bench()
        bench.open()
        bench.records.stored.addDriver(.init(id: DriverID(2), name: "Ben"))
        bench.records.storedVehicle.fuelScale = 1.25
        #expect(bench.control("reload", at: 100) == .now("ok: reloaded\n"))
        #expect(bench.core.directory.drivers.map(\.name) == ["Anna", "Ben"])
        #expect(bench.core.vehicle.fuelScale == 1.25)
        #expect(bench.core.ingest.monitor.fuelCalibrationFactor == 1.25)
        #expect(bench.provisioningChanges == 1)
        #expect(bench.log.contains("fuel calibration reloaded: factor 1.25 (was 1)"), "\(bench.log.all)")
    }

    @Test func aReloadThatCannotReadTheStoreIsNotOk() throws {
        let bench = try Bench()
        bench.open()
        bench.records.stored.addDriver(.init(id: DriverID(2), name: "Ben"))
        bench.records.vehicleFailure = "disk I/O error\nsecond line"
        // The drivers were taken; the vehicle was not, and the answer says so on one line.
        #expect(bench.control("reload", at: 100) == .now("error: not reloaded: vehicle profile: disk I/O error second line\n"))
        #expect(bench.core.directory.drivers.map(\.name) == ["Anna", "Ben"])
        #expect(bench.log.contains("cannot reload the vehicle profile"), "\(bench.log.all)")
        bench.records.vehicleFailure = nil
        #expect(bench.control("reload", at: 200) == .now("ok: reloaded\n"))
    }

    @Test func statusSaysTheLinkAsAValue() throws {
        let bench = try Bench()
        bench.open()
        bench.hello(at: 10)
        let status = bench.core.status(at: LinkMilliseconds(20))
        #expect(status.link.state == .up)
        #expect(status.link.port == "/dev/ttyTEST")
        #expect(status.link.opener == "libserialport")
        #expect(status.link.firmware.map { "\($0.major).\($0.minor).\($0.patch)" } == "1.2.0")
        #expect(status.link.frames.frames == 1)
        #expect(status.link.lastFrameAgeMs == 10)
    }

    @Test func withGPSDTheMCUsNMEAIsCountedAndLeftUnused() throws {
        let bench = try Bench(settings: ServiceCoreSettings(port: "/dev/ttyTEST", gnssSource: "gpsd"))
        bench.open()
        bench.mcu(.nmea(NMEAReport(mcuTimeMs: 100, sentence: ArraySlice("$GPRMC,120000.00,A,4807.038,N,01131.000,E,0.0,0.0,020326,,,A*5E".utf8))), at: 100)
        let status = bench.core.status(at: LinkMilliseconds(200))
        #expect(status.gnss.mcuNMEAIgnored == 1)
        #expect(status.gnss.source == "gpsd")
        #expect(status.gnss.fix == false)
    }
}
