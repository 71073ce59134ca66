// Link codec throughput and allocations over a realistic mixed stream:
// NMEA at 10 Hz (RMC+GGA, GSA once a second), 50 BLE advertisements/s from 20
// advertisers, heartbeats, an NFC tap; cut into 64-byte serial reads.
import Benchmark
import FairFuelLink
import FairFuelSimulation

/// Ten minutes of traffic, concatenated into chunks as the serial reader hands them over.
let mixedStream: (chunks: [[UInt8]], bytes: Int, frames: Int) = {
    var options = SyntheticLinkTraffic.Options()
    options.durationMs = 600_000
    let reads = SyntheticLinkTraffic(options: options).reads()
    let chunks = reads.map(\.bytes)
    let bytes = chunks.reduce(0) { $0 + $1.count }
    var decoder = FrameDecoder(sender: .mcu)
    var frames = 0
    for chunk in chunks { decoder.decode(chunk) { if case .frame = $0 { frames += 1 } } }
    return (chunks, bytes, frames)
}()

/// The same stream in one buffer, for the bulk path (a capture replay reads large blocks).
let mixedStreamWhole: [UInt8] = mixedStream.chunks.flatMap { $0 }

let megabytesPerSecond = BenchmarkMetric.custom("MB/s", polarity: .prefersLarger, useScalingFactor: false)
let framesPerIteration = BenchmarkMetric.custom("frames", polarity: .prefersLarger, useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        // Only metrics that read no /proc files inside the measured region, so that
        // the malloc count is the decoder's own (cpuTotal and instructions allocate).
        metrics: [.wallClock, .mallocCountTotal, megabytesPerSecond, framesPerIteration],
        warmupIterations: 2,
        maxDuration: .seconds(5),
        maxIterations: 50)

    Benchmark("Decode mixed stream, 64-byte reads") { benchmark in
        var decoder = FrameDecoder(sender: .mcu)
        var frames = 0
        let clock = ContinuousClock()
        benchmark.startMeasurement()
        let start = clock.now
        for chunk in mixedStream.chunks {
            // The serial reads are shorter than the decoder's buffer: one append takes each.
            let taken = decoder.append(chunk.span)
            precondition(taken == chunk.count)
            while let output = decoder.next() {
                if case .frame = output { frames += 1 }
            }
        }
        let elapsed = clock.now - start
        benchmark.stopMeasurement()
        blackHole(frames)
        precondition(frames == mixedStream.frames)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        benchmark.measurement(megabytesPerSecond, Int(Double(mixedStream.bytes) / seconds / 1e6))
        benchmark.measurement(framesPerIteration, frames)
    }

    Benchmark("Decode mixed stream, one buffer") { benchmark in
        var decoder = FrameDecoder(sender: .mcu)
        var frames = 0
        let clock = ContinuousClock()
        benchmark.startMeasurement()
        let start = clock.now
        let whole = mixedStreamWhole.span
        var offset = 0
        repeat {
            offset += decoder.append(whole.extracting(droppingFirst: offset))
            while let output = decoder.next() {
                if case .frame = output { frames += 1 }
            }
        } while offset < whole.count
        let elapsed = clock.now - start
        benchmark.stopMeasurement()
        blackHole(frames)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        benchmark.measurement(megabytesPerSecond, Int(Double(mixedStreamWhole.count) / seconds / 1e6))
        benchmark.measurement(framesPerIteration, frames)
    }

    // Millions of random inputs: mutated frames and raw noise. Crashes would end the
    // run; the invariant checked is that every byte sequence leaves the decoder usable.
    Benchmark(
        "Decoder random input, 2M inputs",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], warmupIterations: 0, maxIterations: 1)
    ) { benchmark in
        var state: UInt64 = 0xF00D
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let seeds = Array(mixedStream.chunks.prefix(20_000).joined())
        var input = [UInt8](repeating: 0, count: 600)
        var decoder = FrameDecoder(sender: .mcu)
        var delivered = 0
        for _ in 0..<2_000_000 {
            let length = Int(next() % 600)
            let offset = Int(next() % UInt64(seeds.count - 600))
            for i in 0..<length { input[i] = seeds[offset + i] }
            for _ in 0..<Int(next() % 4) where length > 0 {
                input[Int(next() % UInt64(length))] = UInt8(truncatingIfNeeded: next())
            }
            decoder.decode(input.span.extracting(0..<length)) { output in
                if case .frame = output { delivered += 1 }
            }
            if next() % 8 == 0 { decoder.finish() }
        }
        precondition(decoder.counters.frames == UInt64(delivered))
        blackHole(delivered)
    }
}
