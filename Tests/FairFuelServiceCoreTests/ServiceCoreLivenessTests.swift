import FairFuelCore
import FairFuelDomain
import FairFuelLink
import FairFuelParsers
import FairFuelServiceCore
import Foundation
import Testing

/// A powered but hung MCU on a port that never hangs up (the Pi Zero 2 W's UART, a stopped
/// virtual MCU): frames stop, the port stays open. Frames and host time are handed over by hand.
@Suite struct ServiceCoreLivenessTests {
    typealias Bench = ServiceCoreTests.Bench

    static func settings(silenceLimitMs: Int64 = 10_000) -> ServiceCoreSettings {
        var settings = ServiceCoreSettings(port: "/dev/ttyTEST")
        settings.reconnectBackoffMinMs = 250
        settings.reconnectBackoffMaxMs = 10_000
        settings.mcuSilenceLimitMs = silenceLimitMs
        return settings
    }

    static func status(_ bench: Bench, at ms: Int64) -> ServiceStatus {
        bench.core.status(at: LinkMilliseconds(ms))
    }

    /// The MCU's HEARTBEAT, stamped with host time (the bench's MCU booted with the host).
    static func heartbeat(_ bench: Bench, at ms: Int64) {
        bench.mcu(.heartbeat(Heartbeat(uptimeMs: UInt32(ms), mcuDropped: 0, supplyMillivolts: 12_600, flags: 0)), at: ms)
    }

    /// A valid RMC for second `second` after 12:00:00, its checksum computed.
    static func rmc(second: Int, at ms: Int64) -> LinkMessage {
        let body = "GPRMC,1200\(second < 10 ? "0" : "")\(second).00,A,4807.038,N,01131.000,E,0.0,0.0,020326,,,A"
        let checksum = body.utf8.reduce(UInt8(0), ^)
        let hex = String(checksum, radix: 16, uppercase: true)
        let sentence = "$\(body)*\(hex.count == 1 ? "0" : "")\(hex)"
        return .nmea(NMEAReport(mcuTimeMs: UInt32(ms), sentence: ArraySlice(sentence.utf8)))
    }

    @Test func aTalkingMCUIsNeverSilent() throws {
        let bench = try Bench(settings: Self.settings())
        bench.open()
        bench.hello(at: 10, uptimeMs: 10)
        for ms in stride(from: Int64(1_000), through: 120_000, by: 1_000) {
            Self.heartbeat(bench, at: ms)
            bench.pass(to: ms + 5)
        }
        #expect(bench.reopenRequests == 0)
        #expect(bench.core.linkIsUp)
        #expect(!bench.log.contains("silent"))
        let status = Self.status(bench, at: 120_500)
        #expect(status.link.state == .up)
        #expect(status.link.lastFrameAgeMs == 500)
        #expect(status.link.silentMs == nil)
    }

    @Test func silenceIsWarnedOnceShownInStatusAndTheLinkIsReopenedWithBackoffUntilFramesReturn() throws {
        let bench = try Bench(settings: Self.settings())
        bench.open()
        bench.hello(at: 10, uptimeMs: 10)
        for ms in stride(from: Int64(1_000), through: 5_000, by: 1_000) {
            Self.heartbeat(bench, at: ms)
            bench.pass(to: ms)
        }
        // The MCU hangs after its 5 s HEARTBEAT: the port stays open, nothing comes.
        var ms: Int64 = 5_000
        while bench.reopenRequests == 0 && ms < 60_000 {
            ms += 100
            bench.pass(to: ms)
        }
        #expect(ms == 15_000, "the link is reopened when the limit passes, not later")
        #expect(!bench.core.linkIsUp)
        let warnings = bench.log.all.filter { $0.contains("MCU link silent for 10 s") }
        #expect(warnings.count == 1, "\(bench.log.all)")
        #expect(warnings.first?.contains("HEARTBEAT") == true)
        var status = Self.status(bench, at: 15_000)
        #expect(status.link.state == .silent)
        #expect(status.link.lastFrameAgeMs == 10_000)
        #expect(status.link.silentMs == 10_000)
        #expect(status.link.reconnects == 1)

        // The shell reopens after the backoff; HELLO_REQ goes out again.
        #expect(!bench.core.wantsLink(at: LinkMilliseconds(15_249)))
        #expect(bench.core.wantsLink(at: LinkMilliseconds(15_250)))
        let helloRequests = bench.sent.count { $0.message.rawType == FrameType.helloRequest.rawValue }
        bench.open(at: 15_250)
        #expect(bench.sent.count { $0.message.rawType == FrameType.helloRequest.rawValue } == helloRequests + 1)
        status = Self.status(bench, at: 16_000)
        #expect(status.link.state == .silent, "reopened, but still nothing from the MCU")

        // Still hung: the limit counts from the reopen; the reopens back off; no second warning.
        var reopenedAt: [Int64] = [15_000]
        ms = 15_250
        while reopenedAt.count < 4 {
            ms += 50
            bench.pass(to: ms)
            if bench.reopenRequests > reopenedAt.count {
                reopenedAt.append(ms)
                var next = ms
                while !bench.core.wantsLink(at: LinkMilliseconds(next)) { next += 50 }
                ms = next
                bench.open(at: ms)
            }
        }
        // Open + 10 s limit, then 500, 1 000, 2 000 ms of backoff before the next open.
        #expect(reopenedAt == [15_000, 25_250, 35_750, 46_750], "\(reopenedAt)")
        #expect(bench.log.all.filter { $0.contains("MCU link silent for") }.count == 1)
        #expect(bench.log.contains("MCU link still silent"))

        // Frames again (a reset MCU answers the HELLO_REQ): back, logged once, status up.
        bench.hello(at: 49_000, uptimeMs: 200)
        #expect(bench.log.all.filter { $0.contains("MCU link back") }.count == 1)
        #expect(bench.log.contains("after 44 s of silence"), "\(bench.log.all.filter { $0.contains("back") })")
        status = Self.status(bench, at: 49_100)
        #expect(status.link.state == .up)
        #expect(status.link.silentMs == nil)
        #expect(status.link.lastFrameAgeMs == 100)
    }

    @Test func anMCUThatNeverSpeaksAfterTheOpenIsSilentToo() throws {
        let bench = try Bench(settings: Self.settings(silenceLimitMs: 3_000))
        bench.open(at: 1_000)
        #expect(bench.core.millisecondsUntilWork(at: LinkMilliseconds(3_900)) <= 100)
        bench.pass(to: 3_999)
        #expect(bench.reopenRequests == 0)
        bench.pass(to: 4_000)
        #expect(bench.reopenRequests == 1)
        #expect(bench.log.contains("MCU link silent for 3 s: no frame since the port was opened"), "\(bench.log.all)")
        let status = Self.status(bench, at: 4_000)
        #expect(status.link.state == .silent)
        #expect(status.link.lastFrameAgeMs == nil)
    }

    @Test func anUnpluggedLinkIsDownNotSilent() throws {
        let bench = try Bench(settings: Self.settings())
        bench.open()
        Self.heartbeat(bench, at: 1_000)
        bench.core.linkLost("I/O error", at: LinkMilliseconds(2_000))
        // Down for a minute: no reopen request and no silence warning (the link is not open).
        for ms in stride(from: Int64(2_100), through: 60_000, by: 1_000) { bench.pass(to: ms) }
        #expect(bench.reopenRequests == 0)
        #expect(!bench.log.contains("silent"))
        #expect(Self.status(bench, at: 60_000).link.state == .down)
    }

    @Test func gnssFixAgesOutWhenFixesStop() throws {
        let bench = try Bench(settings: Self.settings())
        bench.open()
        bench.hello(at: 10, uptimeMs: 10)
        for second in 0...3 {
            let ms = Int64(1_000 + second * 1_000)
            bench.mcu(Self.rmc(second: second, at: ms), at: ms)
            Self.heartbeat(bench, at: ms + 1)
            bench.pass(to: ms + 2)
        }
        var status = Self.status(bench, at: 4_100)
        #expect(status.gnss.fix == true, "\(status)")
        let freshAgeMs = try #require(status.gnss.fixAgeMs)
        #expect(freshAgeMs <= 2_000, "the last whole epoch is at most a second or two old: \(status)")

        // The receiver goes quiet, the MCU does not: HEARTBEATs only, for 8 s.
        for ms in stride(from: Int64(5_000), through: 12_000, by: 1_000) {
            Self.heartbeat(bench, at: ms)
            bench.pass(to: ms)
        }
        status = Self.status(bench, at: 12_000)
        #expect(status.gnss.fix == false, "a fix 9 s old is not a fix: \(status)")
        #expect((status.gnss.fixAgeMs ?? 0) >= 8_000, "\(status)")
        #expect(status.link.state == .up)
    }

    @Test func beforeAnyFixThereIsNoFixAndNoAge() throws {
        let bench = try Bench(settings: Self.settings())
        bench.open()
        let status = Self.status(bench, at: 100)
        #expect(status.gnss.fix == false)
        #expect(status.gnss.fixAgeMs == nil)
    }
}
