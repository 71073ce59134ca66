import CGPS
import FairFuelCore
import FairFuelParsers

#if canImport(Glibc)
import Glibc
#endif

/// Position fixes from a local gpsd through libgps, as `GNSSFix` values like the MCU's NMEA gives.
///
/// One `gps_data_t` (about 24 KB) is allocated at init and reused across
/// reconnections. The socket is non-blocking and read only when poll(2) says
/// so: a service loop polls `fileDescriptor` beside its other descriptors and
/// calls `readAvailable` when it is readable, and `reconnectIfDue` when
/// `millisecondsUntilReconnect` has run out; `step` does both for a loop of
/// its own. When gpsd stops or restarts, the client closes its side and
/// reconnects with a backoff that doubles from `backoffMinimumMs` to
/// `backoffMaximumMs`.
///
/// gpsd sends the satellites and dilution (SKY) after the position (TPV) of an
/// epoch, so a fix carries the satellite count and HDOP of the latest SKY
/// before it, nil until the connection has seen one. A TPV repeating the time
/// of the previous one without a better mode is skipped (gpsd sends some
/// twice) and counted.
public final class GPSDClient {
    /// What one call did, for the caller's log.
    public enum Event: Sendable, Equatable {
        /// Reports were read; `fixes` of them were positions handed to the caller.
        case reports(fixes: Int)
        /// Nothing arrived within the timeout, or a reconnect is not due yet.
        case timedOut
        case connected
        /// gpsd could not be reached; the next try is in `retryInMs`.
        case connectFailed(GPSDError, retryInMs: Int64)
        /// gpsd went away; the client reconnects in `retryInMs`.
        case disconnected(GPSDError, retryInMs: Int64)
    }

    /// Totals since init, across reconnections.
    public struct Counters: Sendable, Equatable {
        /// JSON reports read (every class).
        public var reports: UInt64 = 0
        /// Positions (TPV) handed to the caller.
        public var fixes: UInt64 = 0
        /// TPVs skipped because they repeated the previous one's time and mode.
        public var repeatedFixes: UInt64 = 0
        /// ERROR reports from gpsd.
        public var errorReports: UInt64 = 0
        public var connects: UInt64 = 0
        public var failedConnects: UInt64 = 0
        public var disconnects: UInt64 = 0
    }

    public let host: String
    public let port: Int
    public let backoff: ReconnectBackoff
    public private(set) var counters = Counters()
    public private(set) var isConnected = false

    private let session: UnsafeMutablePointer<gps_data_t>
    /// The start of each report, enough to tell its class.
    private let reportPrefix: UnsafeMutablePointer<CChar>
    private static let reportPrefixBytes = 24
    private let monotonicMs: () -> Int64
    /// Connection attempts failed in a row (a lost connection counts as the first).
    private var failuresInRow = 0
    /// When the next connection attempt is due; nil: now.
    private var nextConnectAtMs: Int64?
    private var hasSky = false
    private var lastTime: UTCTimestamp?
    private var lastMode = GNSSMode.noData

    /// A client of gpsd at `host:port` (gpsd's default is 127.0.0.1:2947); it connects at the first `step` or `reconnectIfDue`.
    ///
    /// `monotonicMs` is the clock the backoff is measured on, in milliseconds.
    /// gps_open connects synchronously, which is immediate on the loopback:
    /// keep gpsd on the same board (the unit allows no other address anyway).
    public init(
        host: String = "127.0.0.1", port: Int = 2947, backoffMinimumMs: Int64 = 250, backoffMaximumMs: Int64 = 10_000,
        monotonicMs: @escaping () -> Int64 = GPSDClient.monotonicMilliseconds
    ) {
        self.host = host
        self.port = port
        backoff = ReconnectBackoff(minimumMs: backoffMinimumMs, maximumMs: backoffMaximumMs)
        self.monotonicMs = monotonicMs
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: MemoryLayout<gps_data_t>.size, alignment: MemoryLayout<gps_data_t>.alignment)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<gps_data_t>.size)
        session = raw.bindMemory(to: gps_data_t.self, capacity: 1)
        reportPrefix = .allocate(capacity: GPSDClient.reportPrefixBytes)
        reportPrefix.initialize(repeating: 0, count: GPSDClient.reportPrefixBytes)
    }

    deinit {
        close()
        reportPrefix.deallocate()
        UnsafeMutableRawPointer(session).deallocate()
    }

    /// The socket to poll for POLLIN; nil while disconnected.
    public var fileDescriptor: Int32? { isConnected ? session.pointee.gps_fd : nil }

    /// Milliseconds until the next connection attempt (0: due now); nil while connected.
    public func millisecondsUntilReconnect() -> Int64? {
        guard !isConnected else { return nil }
        guard let nextConnectAtMs else { return 0 }
        return max(0, nextConnectAtMs - monotonicMs())
    }

    /// Connects now, whatever the backoff: `gps_open`, then `?WATCH` for JSON reports.
    public func connect() throws(GPSDError) {
        close()
        let libgps: LibGPS
        switch LibGPS.shared {
        case .success(let loaded): libgps = loaded
        case .failure(let error):
            counters.failedConnects += 1
            throw error
        }
        UnsafeMutableRawPointer(session).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<gps_data_t>.size)
        guard libgps.open(host, String(port), session) == 0 else {
            let code = errno
            counters.failedConnects += 1
            throw .connect(host: host, port: port, reason: libgps.errorText(code).map { String(cString: $0) } ?? "error \(code)")
        }
        let descriptor = session.pointee.gps_fd
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
        guard libgps.stream(session, UInt32(WATCH_ENABLE) | UInt32(WATCH_JSON), nil) == 0 else {
            let code = errno
            _ = libgps.close(session)
            counters.failedConnects += 1
            throw .watch(host: host, port: port, errnoCode: code)
        }
        isConnected = true
        hasSky = false
        lastTime = nil
        lastMode = .noData
        counters.connects += 1
    }

    /// Closes the connection (`gps_close`); the next `reconnectIfDue` opens a new one.
    public func close() {
        guard isConnected, case .success(let libgps) = LibGPS.shared else { return }
        isConnected = false
        _ = libgps.close(session)
    }

    /// Connects when disconnected and the backoff has run out; nil when connected or not yet due.
    public func reconnectIfDue() -> Event? {
        guard !isConnected, millisecondsUntilReconnect() == 0 else { return nil }
        do {
            try connect()
            failuresInRow = 0
            return .connected
        } catch {
            let retry = scheduleReconnect()
            return .connectFailed(error, retryInMs: retry)
        }
    }

    /// Reads every complete report waiting (call it when `fileDescriptor` polls readable or hung up).
    public func readAvailable(_ onFix: (GNSSFix) -> Void) -> Event {
        do {
            return .reports(fixes: try readReports(onFix))
        } catch {
            failuresInRow = 0
            let retry = scheduleReconnect()
            return .disconnected(error, retryInMs: retry)
        }
    }

    /// One turn of a loop of its own: reconnects when due, else waits up to `timeoutMs` (negative: no limit) and reads.
    public func step(timeoutMs: Int32, _ onFix: (GNSSFix) -> Void) -> Event {
        if !isConnected {
            if let event = reconnectIfDue() { return event }
            let untilDue = millisecondsUntilReconnect() ?? 0
            let wait = timeoutMs < 0 ? untilDue : min(Int64(timeoutMs), untilDue)
            if wait > 0 { _ = poll(nil, 0, Int32(clamping: wait)) }
            return reconnectIfDue() ?? .timedOut
        }
        var descriptor = pollfd(fd: session.pointee.gps_fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, timeoutMs)
        if ready == 0 || (ready < 0 && errno == EINTR) { return .timedOut }
        return readAvailable(onFix)
    }

    /// Reads reports until none is complete; throws `.disconnected` (and closes) when gpsd has gone.
    func readReports(_ onFix: (GNSSFix) -> Void) throws(GPSDError) -> Int {
        // Connected means libgps was loaded.
        guard isConnected, case .success(let libgps) = LibGPS.shared else { return 0 }
        var delivered = 0
        while true {
            reportPrefix[0] = 0
            let status = libgps.read(session, reportPrefix, Int32(GPSDClient.reportPrefixBytes))
            if status < 0 {
                let code = errno
                close()
                counters.disconnects += 1
                throw .disconnected(host: host, port: port, errnoCode: code)
            }
            if status == 0 { return delivered }
            counters.reports += 1
            if isReport("TPV") {
                if let fix = takeFix() {
                    counters.fixes += 1
                    delivered += 1
                    onFix(fix)
                }
            } else if isReport("SKY") {
                hasSky = true
            } else if isReport("ERROR") {
                counters.errorReports += 1
            }
        }
    }

    /// The fix libgps accumulated from the TPV just read, unless it repeats the previous one.
    private func takeFix() -> GNSSFix? {
        // Field by field through the pointer: `session.pointee` as a whole would copy all 24 KB.
        let fields = GPSDFixFields(
            mode: session.pointee.fix.mode, timeSeconds: Int(session.pointee.fix.time.tv_sec),
            timeNanoseconds: Int(session.pointee.fix.time.tv_nsec), latitudeDegrees: session.pointee.fix.latitude,
            longitudeDegrees: session.pointee.fix.longitude, altitudeMSLMeters: session.pointee.fix.altMSL,
            altitudeHAEMeters: session.pointee.fix.altHAE, geoidSeparationMeters: session.pointee.fix.geoid_sep,
            speedMetersPerSecond: session.pointee.fix.speed, trackDegrees: session.pointee.fix.track,
            satellitesUsed: hasSky ? Int(session.pointee.satellites_used) : nil,
            hdop: hasSky ? session.pointee.dop.hdop : .nan)
        let fix = fields.fix
        if let utc = fix.utc {
            if utc == lastTime && fix.mode <= lastMode {
                counters.repeatedFixes += 1
                return nil
            }
            lastTime = utc
        }
        lastMode = fix.mode
        return fix
    }

    /// Whether the report just read is of `reportClass` (gpsd starts every report with `{"class":"NAME"`).
    private func isReport(_ reportClass: StaticString) -> Bool {
        let prefix: StaticString = "{\"class\":\""
        let prefixCount = prefix.utf8CodeUnitCount
        let nameCount = reportClass.utf8CodeUnitCount
        guard prefixCount + nameCount + 1 < GPSDClient.reportPrefixBytes else { return false }
        return reportPrefix.withMemoryRebound(to: UInt8.self, capacity: GPSDClient.reportPrefixBytes) { bytes in
            memcmp(bytes, prefix.utf8Start, prefixCount) == 0
                && memcmp(bytes + prefixCount, reportClass.utf8Start, nameCount) == 0
                && bytes[prefixCount + nameCount] == UInt8(ascii: "\"")
        }
    }

    private func scheduleReconnect() -> Int64 {
        failuresInRow += 1
        let retry = backoff.delayMs(failures: failuresInRow)
        nextConnectAtMs = monotonicMs() + retry
        return retry
    }

    /// CLOCK_MONOTONIC in milliseconds.
    public static func monotonicMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000 + Int64(now.tv_nsec) / 1_000_000
    }
}
