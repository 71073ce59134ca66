import FairFuelCore
@testable import FairFuelEdges
import FairFuelParsers
import Foundation
import Testing
import TestSupport

@Suite(.tags(.integration)) struct GPSDClientTests {
    /// Feeds epochs at 5 Hz and steps the client until `done` holds or `seconds` pass.
    static func run(
        _ client: GPSDClient, _ harness: GPSDHarness, seconds: Double, events: inout [GPSDClient.Event],
        fixes: inout [GNSSFix], until done: (_ events: [GPSDClient.Event], _ fixes: [GNSSFix]) -> Bool
    ) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var nextWrite = Date()
        while Date() < deadline {
            if Date() >= nextWrite {
                harness.writeEpoch()
                nextWrite = nextWrite.addingTimeInterval(0.2)
            }
            let event = client.step(timeoutMs: 20) { fixes.append($0) }
            switch event {
            case .timedOut, .reports(fixes: 0): break
            default: events.append(event)
            }
            if done(events, fixes) { return true }
        }
        return false
    }

    @Test(
        "fixes from a real gpsd on a pseudo-terminal, and a reconnect when gpsd restarts",
        .enabled(if: GPSDHarness.toolsPresent, "gpsd or socat is not installed (scripts/install-deps.sh installs both)"),
        .timeLimit(.minutes(1)))
    func realGPSD() throws {
        let harness = try GPSDHarness()
        defer { harness.shutDown() }
        let client = GPSDClient(host: "127.0.0.1", port: harness.port, backoffMinimumMs: 50, backoffMaximumMs: 400)
        var events: [GPSDClient.Event] = []
        var fixes: [GNSSFix] = []
        let written = { (fix: GNSSFix) in fix.utc.flatMap { harness.epochs[$0] } != nil }

        // Connect (gpsd may still be starting: the first tries can fail) and read three fixes of written epochs.
        let gotFixes = Self.run(client, harness, seconds: 15, events: &events, fixes: &fixes) { _, fixes in
            fixes.filter(written).count >= 3 && fixes.contains { $0.satellitesUsed != nil }
        }
        #expect(gotFixes, "no fixes from gpsd within 15 s; events \(events); \(harness.logs)")
        #expect(events.contains(.connected))
        #expect(client.fileDescriptor != nil)
        // gpsd may report the first epoch as 2D (from RMC alone); every later one is 3D.
        #expect(fixes.allSatisfy { $0.mode >= .fix2D })
        #expect(fixes.filter { written($0) && $0.mode == .fix3D }.count >= 2)
        for fix in fixes {
            guard let utc = fix.utc, let epoch = harness.epochs[utc] else { continue }
            #expect(abs((fix.latitude ?? 0) - epoch.latitude) < 1e-6)
            #expect(abs((fix.longitude ?? 0) - epoch.longitude) < 1e-6)
            #expect(abs((fix.speed?.value ?? 0) - GPSDHarness.speedMetersPerSecond) < 0.01)
            #expect(abs((fix.course ?? 0) - GPSDHarness.courseDegrees) < 0.05)
            if fix.mode == .fix3D { #expect(abs((fix.altitude?.value ?? 0) - GPSDHarness.altitudeMeters) < 0.05) }
            #expect(fix.timeOfDay == utc.timeOfDay)
        }
        // Satellites and HDOP come from gpsd's SKY report, which follows the epoch's TPV.
        let withSky = fixes.filter { $0.satellitesUsed != nil }
        #expect(withSky.allSatisfy { $0.satellitesUsed == GPSDHarness.satellites.count && $0.hdop == GPSDHarness.hdop })
        #expect(client.counters.connects == 1)

        if getuid() == 0, getpwnam("gpsd") != nil {
            let pid = try #require(harness.gpsd?.programIdentifier)
            // Started as root, gpsd drops to its own user once the device is open.
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            let uids = status.split(separator: "\n").first { $0.hasPrefix("Uid:") }?.split(whereSeparator: \.isWhitespace).dropFirst()
            #expect(uids?.first.map(String.init) != "0", "gpsd kept root: \(status)")
        }

        // gpsd stops: the client notices, closes its side and retries with backoff.
        harness.stopGPSD()
        events.removeAll()
        let noticed = Self.run(client, harness, seconds: 5, events: &events, fixes: &fixes) { events, _ in
            events.contains { if case .disconnected = $0 { true } else { false } }
        }
        #expect(noticed, "the client did not notice gpsd stopping: \(events)")
        #expect(client.fileDescriptor == nil)

        // gpsd comes back on the same port: the client reconnects and fixes resume.
        // (Sentences written while it was down may still wait in the pty: ask for a fix written after the restart.)
        try harness.startGPSD()
        let restartedAt = UTCTimestamp(millisecondsSinceEpoch: Int64(Date().timeIntervalSince1970 * 1_000) / 10 * 10)
        events.removeAll()
        let resumed = Self.run(client, harness, seconds: 15, events: &events, fixes: &fixes) { events, fixes in
            events.contains(.connected) && fixes.contains { written($0) && $0.utc! >= restartedAt }
        }
        #expect(resumed, "no fixes after gpsd restarted: events \(events); \(harness.logs)")
        #expect(client.counters.connects == 2)
        #expect(client.counters.disconnects == 1)
        #expect(client.counters.fixes == UInt64(fixes.count))
        client.close()
        #expect(client.fileDescriptor == nil)
    }

    @Test func connectFailuresBackOffExponentiallyUpToTheMaximum() throws {
        let port = try #require(freeLoopbackPort())
        nonisolated(unsafe) var nowMs: Int64 = 1_000
        let client = GPSDClient(port: port, backoffMinimumMs: 100, backoffMaximumMs: 400, monotonicMs: { nowMs })
        #expect(client.millisecondsUntilReconnect() == 0)
        guard case let .connectFailed(error, retry) = client.reconnectIfDue() else {
            Issue.record("connected to a port nothing listens on")
            return
        }
        #expect(retry == 100)
        guard case let .connect(host, failedPort, reason) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(host == "127.0.0.1" && failedPort == port && !reason.isEmpty)
        #expect(error.description.hasPrefix("cannot connect to gpsd at 127.0.0.1:\(port): "))
        nowMs += 50
        #expect(client.reconnectIfDue() == nil)
        #expect(client.millisecondsUntilReconnect() == 50)
        var retries: [Int64] = []
        for _ in 0..<4 {
            nowMs += client.millisecondsUntilReconnect()!
            if case let .connectFailed(_, retry) = client.reconnectIfDue() { retries.append(retry) }
        }
        #expect(retries == [200, 400, 400, 400])
        #expect(client.counters.failedConnects == 5)
        #expect(client.fileDescriptor == nil)
        #expect(client.readAvailable { _ in } == .reports(fixes: 0))
    }

    @Test func stepWaitsForTheBackoffWithoutSpinning() throws {
        let port = try #require(freeLoopbackPort())
        let client = GPSDClient(port: port, backoffMinimumMs: 150, backoffMaximumMs: 150)
        guard case .connectFailed = client.step(timeoutMs: 1_000, { _ in }) else {
            Issue.record("connected to a port nothing listens on")
            return
        }
        let clock = ContinuousClock()
        let start = clock.now
        #expect(client.step(timeoutMs: 60, { _ in }) == .timedOut)
        #expect(clock.now - start >= .milliseconds(50))
        // The wait ends when the retry is due, not at the caller's longer timeout.
        guard case .connectFailed = client.step(timeoutMs: 5_000, { _ in }) else {
            Issue.record("expected a second failed try")
            return
        }
        #expect(clock.now - start < .milliseconds(1_000))
    }

    @Test func sessionStructureIsAllocatedOnceForTheAPIThisWasWrittenFor() {
        #expect(GPSDLibrary.apiVersion.hasPrefix("11."))
        #expect(GPSDLibrary.sessionStructureBytes > 20_000)
    }
}

@Suite struct GPSDFixFieldsTests {
    static let threeD = GPSDFixFields(
        mode: 3, timeSeconds: 1_795_000_000, timeNanoseconds: 499_999_999, latitudeDegrees: 48.1173,
        longitudeDegrees: 11.516666667, altitudeMSLMeters: 545.4, altitudeHAEMeters: 592.3, geoidSeparationMeters: 46.9,
        speedMetersPerSecond: 11.524, trackDegrees: 84.4, satellitesUsed: 6, hdop: 1.3)

    @Test func aThreeDFixKeepsEveryField() {
        let fix = Self.threeD.fix
        #expect(fix.mode == .fix3D)
        #expect(fix.utc == UTCTimestamp(millisecondsSinceEpoch: 1_795_000_000_500))
        #expect(fix.timeOfDay == fix.utc?.timeOfDay)
        #expect(fix.latitude == 48.1173 && fix.longitude == 11.516666667)
        #expect(fix.altitude == Meters(545.4))
        #expect(fix.speed == MetersPerSecond(11.524))
        #expect(fix.course == 84.4)
        #expect(fix.satellitesUsed == 6 && fix.hdop == 1.3)
    }

    @Test func notANumberIsNil() {
        var fields = Self.threeD
        fields.trackDegrees = .nan
        fields.speedMetersPerSecond = .nan
        fields.hdop = .nan
        fields.satellitesUsed = nil
        let fix = fields.fix
        #expect(fix.course == nil && fix.speed == nil && fix.hdop == nil && fix.satellitesUsed == nil)
        #expect(fix.latitude != nil)
    }

    @Test func altitudeFallsBackToHAELessTheGeoid() {
        var fields = Self.threeD
        fields.altitudeMSLMeters = .nan
        #expect(abs(fields.fix.altitude!.value - 545.4) < 1e-9)
        fields.geoidSeparationMeters = .nan
        #expect(fields.fix.altitude == nil)
    }

    @Test func withoutAFixThereIsNoPosition() {
        for mode: Int32 in [0, 1] {
            var fields = Self.threeD
            fields.mode = mode
            let fix = fields.fix
            #expect(fix.mode == (mode == 0 ? .noData : .noFix))
            #expect(fix.latitude == nil && fix.longitude == nil && fix.altitude == nil && fix.speed == nil && fix.course == nil)
            #expect(fix.utc != nil)
        }
        var timeless = Self.threeD
        timeless.mode = 1
        timeless.timeSeconds = 0
        timeless.timeNanoseconds = 0
        #expect(timeless.fix.utc == nil && timeless.fix.timeOfDay == nil)
        var odd = Self.threeD
        odd.mode = 7
        #expect(odd.fix.mode == .fix3D)
        odd.mode = -1
        #expect(odd.fix.mode == .noData)
    }

    @Test func timeRoundsToTheNearestMillisecond() {
        #expect(GPSDFixFields.milliseconds(seconds: 10, nanoseconds: 0) == 10_000)
        #expect(GPSDFixFields.milliseconds(seconds: 10, nanoseconds: 499_999) == 10_000)
        #expect(GPSDFixFields.milliseconds(seconds: 10, nanoseconds: 500_000) == 10_001)
        #expect(GPSDFixFields.milliseconds(seconds: 10, nanoseconds: 999_999_999) == 11_000)
    }

    /// libgps fills the timespec from whatever answers on gpsd's port: a fraction like `.5e300` in
    /// "time" (a C double-to-long conversion saturates on the Pi's ARM) or a year-292277026596 second
    /// count overflowed Int64 milliseconds here and trapped. Such a fix now has no time.
    @Test func aTimespecOutOfRangeGivesNoTime() {
        #expect(GPSDFixFields.milliseconds(seconds: 10, nanoseconds: Int.max) == nil)
        #expect(GPSDFixFields.milliseconds(seconds: 10, nanoseconds: -1) == nil)
        #expect(GPSDFixFields.milliseconds(seconds: 10, nanoseconds: 1_000_000_000) == nil)
        #expect(GPSDFixFields.milliseconds(seconds: Int.max, nanoseconds: 0) == nil)
        #expect(GPSDFixFields.milliseconds(seconds: Int(Int64.max / 1_000), nanoseconds: 999_999_999) == nil)
        var fields = Self.threeD
        fields.timeNanoseconds = Int.max
        #expect(fields.fix.utc == nil && fields.fix.timeOfDay == nil)
        #expect(fields.fix.latitude == 48.1173, "the position still counts")
    }
}
