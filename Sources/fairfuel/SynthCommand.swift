import ArgumentParser
import FairFuelSimulation

struct SynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth-capture",
        abstract: "Write a synthetic MCU capture (.ffcap) for tests, demos and benchmarks.")

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

    func validate() throws {
        guard (1...86_400).contains(seconds) else { throw ValidationError("--seconds must be 1 to 86400") }
        guard (1...20).contains(nmeaHz) else { throw ValidationError("--nmea-hz must be 1 to 20") }
        guard (0...1000).contains(adsPerSecond) else { throw ValidationError("--ads-per-second must be 0 to 1000") }
    }

    func run() {
        var options = SyntheticLinkTraffic.Options()
        options.durationMs = Int64(seconds) * 1000
        options.nmeaEpochsPerSecond = nmeaHz
        options.bleAdvertisementsPerSecond = adsPerSecond
        options.lineNoise = noise
        options.seed = seed
        print(SyntheticLinkTraffic(options: options).captureText(), terminator: "")
    }
}
