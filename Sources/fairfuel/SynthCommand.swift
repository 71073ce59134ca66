import ArgumentParser
import FairFuelEdges
import FairFuelSimulation
import FairFuelSimulationRunner

struct SynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth-capture",
        abstract: "Write a synthetic MCU capture (.ffcap) for tests, demos and benchmarks.",
        discussion: """
            Without --soak: one drive of --seconds, built in memory and printed. With --soak: a \
            family's day (or --hours of days) streamed with constant memory to --out (default \
            standard output), for `fairfuel replay -`; the summary goes to standard error. The \
            soak store must know the family's drivers: --list-drivers prints them as \
            `provision driver add` arguments.
            """)

    @Option(help: "Length of the drive in seconds.")
    var seconds: Int = 20

    @Option(help: "NMEA epochs per second.")
    var nmeaHz: Int = 10

    @Option(help: "BLE advertisements per second.")
    var adsPerSecond: Int = 50

    @Flag(help: "Add line noise: garbage bursts, bit errors and dropped frames.")
    var noise = false

    @Option(help: "Random seed.")
    var seed: UInt64 = 1

    @Flag(help: "Stream the soak traffic: a family's days with 20 advertisers in range, GNSS the whole time.")
    var soak = false

    @Option(help: "Simulated hours of soak traffic (with --soak).")
    var hours: Double = 24

    @Option(help: "Time of day, in hours after midnight UTC, at which the soak capture starts (with --soak).")
    var startHour: Double = 0

    @Option(help: "Where the soak capture goes: a file, or - for standard output (with --soak).")
    var out = "-"

    @Flag(help: "Print the soak family's drivers, one `NAME --tag TAG --beacon SPEC` a line, and exit.")
    var listDrivers = false

    func validate() throws {
        guard (1...86_400).contains(seconds) else { throw ValidationError("--seconds must be 1 to 86400") }
        guard (1...20).contains(nmeaHz) else { throw ValidationError("--nmea-hz must be 1 to 20") }
        guard (0...1000).contains(adsPerSecond) else { throw ValidationError("--ads-per-second must be 0 to 1000") }
        guard hours.isFinite, hours > 0, hours <= 24 * 366 else { throw ValidationError("--hours must be above 0 and at most 8784") }
        guard startHour.isFinite, (0..<24).contains(startHour) else { throw ValidationError("--start-hour must be 0 to below 24") }
        if !soak && out != "-" { throw ValidationError("--out is for --soak captures") }
        if soak && noise { throw ValidationError("--noise is not available with --soak") }
    }

    func run() throws {
        if listDrivers {
            for driver in SoakDriver.family {
                print("\(driver.name) --tag \(driver.tagText) --beacon \(driver.beaconSpec)")
            }
            return
        }
        if soak {
            try runSoak()
            return
        }
        var options = SyntheticLinkTraffic.Options()
        options.durationMs = Int64(seconds) * 1000
        options.nmeaEpochsPerSecond = nmeaHz
        options.bleAdvertisementsPerSecond = adsPerSecond
        options.lineNoise = noise
        options.seed = seed
        print(SyntheticLinkTraffic(options: options).captureText(), terminator: "")
    }

    private func runSoak() throws {
        var options = SoakTraffic.Options()
        options.durationMs = Int64((hours * 3_600_000).rounded())
        options.nmeaEpochsPerSecond = nmeaHz
        options.advertisementsPerSecond = adsPerSecond
        options.seed = seed
        options.startMillisecondsOfDay = Int64((startHour * 3_600_000).rounded())
        var traffic = SoakTraffic(options: options)
        do {
            let writer = try SoakCaptureWriter(path: out)
            try writer.writeLine("# fairfuel capture v1")
            try writer.writeLine("# soak traffic: \(hours) h from \(startHour) h UTC, \(nmeaHz) Hz NMEA, \(adsPerSecond) adverts/s from "
                + "\(options.advertisersInRange) advertisers, the family's day of \(options.day.count) trips, seed \(seed)")
            var writeError: FileError?
            // An hour at a time; each read goes straight to the writer's buffer.
            var hourEnd: Int64 = 0
            while !traffic.isFinished && writeError == nil {
                hourEnd += 3_600_000
                traffic.generate(untilMs: hourEnd) { timeMs, bytes in
                    guard writeError == nil else { return }
                    do throws(FileError) { try writer.writeRead(timeMs: timeMs, bytes: bytes) } catch { writeError = error }
                }
            }
            if let writeError { throw writeError }
            try writer.close()
        } catch {
            throw UserFacingError("\(error)")
        }
        let s = traffic.statistics
        let drivingHours = Double(s.drivingMs) / 3_600_000
        var summary = "soak traffic: \(hours) h, \(s.tripsDriven) trips, driving_h=\(Self.fixed(drivingHours)), frames=\(s.frames), "
        summary += "bytes=\(s.bytes), nmea=\(s.nmeaSentences), adverts=\(s.advertisements), heartbeats=\(s.heartbeats), taps=\(s.taps)\n"
        // Standard error: standard output may be the capture itself.
        StandardErrorLog.write(Array(summary.utf8))
    }

    /// Three decimals, without Foundation's formatting.
    static func fixed(_ value: Double) -> String {
        let thousandths = Int((value * 1_000).rounded())
        let fraction = String(thousandths % 1_000)
        return "\(thousandths / 1_000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
