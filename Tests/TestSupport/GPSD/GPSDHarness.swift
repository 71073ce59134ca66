import FairFuelCore
import FairFuelParsers
import FairFuelSimulation
import Foundation

/// A real gpsd reading NMEA from one end of a socat pseudo-terminal pair, fed by the test at the other end.
///
/// `gpsd -N -n -b -s 38400 -S PORT -F SOCKET DEVICE`: foreground, open the
/// device without waiting for a client, read-only ("broken device safety"),
/// 38 400 baud, its own port and control socket. Run as root, gpsd opens the
/// device and then drops to the `gpsd` user, which is why socat makes the
/// ptys `mode=666`. The sentences carry the current date: gpsd shifts a time
/// far from its own clock. (gpsfake hangs in this environment, so it is not used.)
public final class GPSDHarness {
    public static let gpsdPath = findExecutable("gpsd")
    public static let socatPath = findExecutable("socat")
    public static var toolsPresent: Bool { gpsdPath != nil && socatPath != nil }

    /// One epoch the test wrote.
    public struct Epoch {
        public var utc: UTCTimestamp
        public var latitude: Double
        public var longitude: Double
    }

    public static let speedMetersPerSecond = 12.5
    public static let courseDegrees = 84.4
    public static let altitudeMeters = 545.4
    public static let satellites = [4, 5, 9, 12, 24, 25]
    public static let hdop = 1.2

    public let directory: String
    public let port: Int
    public private(set) var socat: ChildProcess?
    public private(set) var gpsd: ChildProcess?
    private var feed: Int32 = -1
    public private(set) var epochs: [UTCTimestamp: Epoch] = [:]
    private var epochCount = 0

    /// `startingGPSD` false: the pty pair only; gpsd starts at `startGPSD()` (a test of a service
    /// started before gpsd, on a port nothing has listened on: stopping a gpsd just started to
    /// get there left it listening for seconds on a loaded machine).
    public init(startingGPSD: Bool = true) throws {
        guard let socatPath = GPSDHarness.socatPath, GPSDHarness.gpsdPath != nil else { throw HarnessError("gpsd or socat is missing") }
        directory = NSTemporaryDirectory() + "fairfuel-gpsd-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        guard let port = freeLoopbackPort() else { throw HarnessError("no free loopback port") }
        self.port = port
        socat = try ChildProcess(
            socatPath,
            ["-d", "-d", "pty,raw,echo=0,mode=666,link=\(directory)/gps0", "pty,raw,echo=0,mode=666,link=\(directory)/gps1"],
            logPath: directory + "/socat.log")
        let deadline = Date().addingTimeInterval(5)
        while !(FileManager.default.fileExists(atPath: directory + "/gps0") && FileManager.default.fileExists(atPath: directory + "/gps1")) {
            guard Date() < deadline, socat?.isRunning == true else {
                let log = socat?.log ?? ""
                shutDown()
                throw HarnessError("socat made no pty pair within 5 s: \(log)")
            }
            usleep(10_000)
        }
        feed = open(directory + "/gps1", O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard feed >= 0 else {
            shutDown()
            throw HarnessError("cannot open \(directory)/gps1: errno \(errno)")
        }
        if startingGPSD { try startGPSD() }
    }

    deinit { shutDown() }

    /// Starts gpsd on `port` reading `gps0`.
    public func startGPSD() throws {
        gpsd = try ChildProcess(
            GPSDHarness.gpsdPath!,
            ["-N", "-n", "-b", "-s", "38400", "-S", "\(port)", "-F", directory + "/gpsd.sock", directory + "/gps0"],
            logPath: directory + "/gpsd-\(epochCount).log")
    }

    /// Stops gpsd (SIGTERM, then SIGKILL) and waits for it.
    public func stopGPSD() {
        gpsd?.stop()
        gpsd = nil
    }

    /// Stops every child, closes the feed and removes the directory; safe to call twice.
    public func shutDown() {
        if feed >= 0 {
            close(feed)
            feed = -1
        }
        gpsd?.stop()
        gpsd = nil
        socat?.stop()
        socat = nil
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Writes RMC, GGA, GSA and GSV for now (UTC, to 10 ms), each epoch a little further north-east.
    @discardableResult
    public func writeEpoch() -> Epoch {
        let milliseconds = Int64(Date().timeIntervalSince1970 * 1_000) / 10 * 10
        let utc = UTCTimestamp(millisecondsSinceEpoch: milliseconds)
        let epoch = Epoch(
            utc: utc, latitude: 48.117_3 + Double(epochCount) * 0.000_01, longitude: 11.516_666 + Double(epochCount) * 0.000_02)
        epochCount += 1
        let timeOfDay = Int64(utc.timeOfDay.milliseconds)
        let date = utc.date
        var text = ""
        text += NMEASentenceWriter.rmc(
            utcMillisecondsOfDay: timeOfDay, year: date.year, month: date.month, day: date.day, latitude: epoch.latitude,
            longitude: epoch.longitude, speedMetersPerSecond: GPSDHarness.speedMetersPerSecond,
            courseDegrees: GPSDHarness.courseDegrees) + "\r\n"
        text += NMEASentenceWriter.gga(
            utcMillisecondsOfDay: timeOfDay, latitude: epoch.latitude, longitude: epoch.longitude,
            satellites: GPSDHarness.satellites.count, hdop: GPSDHarness.hdop, altitudeMeters: GPSDHarness.altitudeMeters) + "\r\n"
        text += NMEASentenceWriter.gsa(satellites: GPSDHarness.satellites, pdop: 2.0, hdop: GPSDHarness.hdop, vdop: 1.6) + "\r\n"
        // GSV lists the satellites in view: without it gpsd sends no SKY report (satellites used, HDOP).
        text += NMEASentenceWriter.sentence("GPGSV,2,1,06,04,40,083,46,05,17,308,41,09,07,344,39,12,07,344,39") + "\r\n"
        text += NMEASentenceWriter.sentence("GPGSV,2,2,06,24,40,083,46,25,17,308,41") + "\r\n"
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(feed, $0.baseAddress, $0.count) }
        epochs[utc] = epoch
        return epoch
    }

    /// gpsd's logs so far, for a failure message.
    public var logs: String {
        var text = "socat: \(socat?.log ?? "(stopped)")\n"
        if let files = try? FileManager.default.contentsOfDirectory(atPath: directory) {
            for file in files.sorted() where file.hasPrefix("gpsd-") {
                text += "\(file): " + ((try? String(contentsOfFile: directory + "/" + file, encoding: .utf8)) ?? "") + "\n"
            }
        }
        return text
    }
}

public struct HarnessError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
