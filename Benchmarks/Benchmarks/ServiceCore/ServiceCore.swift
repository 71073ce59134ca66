// The service core on the live path: serial reads of a realistic mixed stream (NMEA at
// 10 Hz, 50 BLE advertisements/s from 20 advertisers, heartbeats, a driver's tap) handed to
// `ServiceCore.received` with the host's time, and the core's time passing once per read,
// as the shell's poll loop does; the actions go to a shell that only counts them. Each
// iteration builds a core and plays the first 30 s (the tap, the session start, the first
// fixes) outside the measured region, then measures the rest of ten minutes: mallocs per
// frame = mallocCountTotal / "frames" (target: 0 in steady state).
// Run: cd Benchmarks && swift package --scratch-path .build-scen benchmark --target ServiceCore
import Benchmark
import FairFuelCore
import FairFuelDomain
import FairFuelLink
import FairFuelParsers
import FairFuelServiceCore
import FairFuelSimulation

/// Ten minutes of serial reads, split at 30 s of capture time.
let stream: (warmUp: [SyntheticLinkTraffic.Read], measured: [SyntheticLinkTraffic.Read], frames: Int) = {
    var options = SyntheticLinkTraffic.Options()
    options.durationMs = 600_000
    let reads = SyntheticLinkTraffic(options: options).reads()
    let split = reads.firstIndex { $0.timeMs >= 30_000 } ?? reads.count
    var decoder = FrameDecoder(sender: .mcu)
    var frames = 0
    for read in reads[split...] { decoder.decode(read.bytes) { if case .frame = $0 { frames += 1 } } }
    return (Array(reads[..<split]), Array(reads[split...]), frames)
}()

/// The driver the synthetic tap names (its fob's driver URI), with a beacon of the stream's.
let directory: DriverDirectory = {
    var directory = DriverDirectory()
    directory.addDriver(.init(id: DriverID(1), name: "Anna"))
    directory.bind(tag: .driver(UUID128("3f2a1b4c-5d6e-4f70-8192-a3b4c5d6e7f8")!), to: DriverID(1))
    return directory
}()

let vehicle = VehicleFuelSettings(
    massKilograms: 1_400, ratedLitersPer100km: 6.5, idleLitersPerHour: 0.8, fuelType: "petrol", fuelScale: 1,
    untrackedPolicy: "owner")

/// What a shell that performs nothing sees: counts only.
struct CountingShell {
    var sends = 0
    var records = 0
    var sessionStarts = 0

    mutating func perform(_ action: ServiceAction) {
        switch action {
        case .send: sends += 1
        case let .record(output):
            records += 1
            if case .sessionStarted = output { sessionStarts += 1 }
        default: break
        }
    }
}

let framesPerIteration = BenchmarkMetric.custom("frames", polarity: .prefersLarger, useScalingFactor: false)
let framesPerSecond = BenchmarkMetric.custom("frames/s", polarity: .prefersLarger, useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        // Only metrics that read no /proc files inside the measured region (see LinkCodec).
        metrics: [.wallClock, .mallocCountTotal, framesPerIteration, framesPerSecond],
        warmupIterations: 1,
        maxDuration: .seconds(10),
        maxIterations: 20)

    Benchmark("ServiceCore: ten minutes of a drive, serial reads") { benchmark in
        let core = try! ServiceCore(settings: ServiceCoreSettings(port: "bench"), directory: directory, vehicle: vehicle)
        var shell = CountingShell()
        core.linkOpened(opener: "bench", message: "bench", at: LinkMilliseconds(0)) { shell.perform($0) }
        for read in stream.warmUp {
            let now = LinkMilliseconds(Int64(read.timeMs))
            core.received(read.bytes[...], at: now) { shell.perform($0) }
            core.timePassed(at: now) { shell.perform($0) }
        }
        precondition(shell.sessionStarts == 1, "the warm-up holds the tap: a session is in progress")
        let before = core.linkCounters.frames
        let clock = ContinuousClock()
        benchmark.startMeasurement()
        let start = clock.now
        for read in stream.measured {
            let now = LinkMilliseconds(Int64(read.timeMs))
            core.received(read.bytes[...], at: now) { shell.perform($0) }
            core.timePassed(at: now) { shell.perform($0) }
        }
        let elapsed = clock.now - start
        benchmark.stopMeasurement()
        let frames = Int(core.linkCounters.frames - before)
        precondition(frames == stream.frames)
        blackHole(shell)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        benchmark.measurement(framesPerIteration, frames)
        benchmark.measurement(framesPerSecond, Int(Double(frames) / seconds))
    }
}
