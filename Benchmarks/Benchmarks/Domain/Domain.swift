// The whole domain (`DrivingMonitor.handle`) on a realistic mix, with a session in
// progress: 10 Hz GNSS fixes of a car driving town blocks (accelerate, cruise, brake,
// stand at a light), 50 BLE advertisements/s from 20 advertisers (the driver's fob in
// the cabin, other fobs, watches, phones and a shop's Eddystone beacon outside), and a
// heartbeat tick every second. Every event is built before the measured region; each
// iteration hands 10 minutes of them (36 600 events) to a monitor warmed up outside it,
// so mallocs per event = mallocCountTotal / "events" (target: 0).
// Run: cd Benchmarks && swift package --scratch-path .build-scen benchmark --target Domain
// Stacks of any allocation: add --allocation-stacks (see the benchmark package's docs).
import Benchmark
import FairFuelCore
import FairFuelDomain
import FairFuelParsers

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The traffic: a warm-up (the tap and the first 30 s) and the measured ten minutes.
struct Traffic {
    static let driverFob = BLEAddress(rawValue: 0xD3_41_7A_0C_22_15)
    static let fobUUID: [UInt8] = [0xFD, 0xA5, 0x06, 0x93, 0xA4, 0xE2, 0x4F, 0xB1, 0xAF, 0xCF, 0xC6, 0xEB, 0x07, 0x64, 0x78, 0x25]
    static let tagUID: [UInt8] = [0x04, 0x5A, 0x1E, 0x72, 0x9B, 0x61, 0x80]

    var warmUp: [DomainEvent] = []
    var measured: [DomainEvent] = []

    static let directory: DriverDirectory = {
        var directory = DriverDirectory()
        for id in 1...3 { directory.addDriver(.init(id: DriverID(Int64(id)), name: "driver \(id)")) }
        directory.bind(tag: .uid(try! TagUID(bytes: tagUID[...])), to: DriverID(1))
        directory.bind(beacon: .iBeacon(proximityUUID: UUID128(bytes: fobUUID[...]), major: 1, minor: 101), to: DriverID(1))
        directory.bind(beacon: .iBeacon(proximityUUID: UUID128(bytes: fobUUID[...]), major: 1, minor: 102), to: DriverID(2))
        return directory
    }()

    /// 20 advertisers: the driver's fob (index 0, in the cabin) and 19 others around.
    static func advertiser(_ index: Int) -> (identities: BeaconIdentities, rssi: Int) {
        let flags: [UInt8] = [0x02, 0x01, 0x06]
        let address: BLEAddress
        let type: BLEAddressType
        var data: [UInt8]
        switch index % 5 {
        case 0:  // a FairFuel fob: the driver's, or another family's
            address = index == 0 ? driverFob : BLEAddress(rawValue: 0xC0_00_00_00_10_00 | UInt64(index))
            type = .random
            data = flags + [0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15] + fobUUID + [0x00, 0x01, 0x00, UInt8(index == 0 ? 101 : 200 + index), 0xC5]
        case 1:  // a watch with a static random address
            address = BLEAddress(rawValue: 0xC0_00_00_00_20_00 | UInt64(index))
            type = .random
            data = flags + [0x06, 0x09] + Array("Watch".utf8)
        case 2, 3:  // phones: resolvable private addresses, no stable identity
            address = BLEAddress(rawValue: 0x40_00_00_00_30_00 | UInt64(index))
            type = .random
            data = [0x02, 0x01, 0x1A, 0x0A, 0xFF, 0x4C, 0x00, 0x10, 0x05, 0x0B, 0x1C, UInt8(index), 0x3E, 0x77]
        default:  // a shop's Eddystone-UID on a public address
            address = BLEAddress(rawValue: 0x00_1A_7D_00_00_00 | UInt64(index))
            type = .public
            data = flags + [0x03, 0x03, 0xAA, 0xFE, 0x17, 0x16, 0xAA, 0xFE, 0x00, 0xF0]
                + [0x8B, 0x0C, 0xA7, 0x50, 0xE1, 0x8F, 0x4D, 0x95, 0x0A, 0x1C, 0, 0, 0, 0, 0, UInt8(index), 0, 0]
        }
        let rssi = index == 0 ? -60 : -78 - (index * 7) % 18
        return (BeaconIdentities(address: address, addressType: type, data: data[...]), rssi)
    }

    static let shared: Traffic = {
        var traffic = Traffic()
        let advertisers = (0..<20).map { Traffic.advertiser($0) }
        var state: UInt64 = 0x5EED
        func noise() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) * 0x1p-53 - 0.5
        }
        var events: [DomainEvent] = []
        let utcStart: Int64 = 1_793_599_200_000
        let read = try! NFCTagIdentities(technology: .iso14443A, uid: tagUID[...], ndef: [][...])
        events.append(.tagRead(read, at: LinkMilliseconds(500)))
        var latitude = 48.137
        var longitude = 11.575
        var speed = 0.0
        var phase = 0  // 0 accelerate, 1 cruise, 2 brake, 3 stand
        var phaseMs: Int64 = 0
        var nextAdvertiser = 0
        let endMs: Int64 = 630_000
        var time: Int64 = 1_000
        while time < endMs {
            // 10 Hz fixes.
            if time % 100 == 0 {
                let dt = 0.1
                switch phase {
                case 0: speed = min(14, speed + 1.5 * dt); if speed >= 14 { phase = 1; phaseMs = time }
                case 1: if time - phaseMs > 25_000 { phase = 2 }
                case 2: speed = max(0, speed - 2 * dt); if speed == 0 { phase = 3; phaseMs = time }
                default: if time - phaseMs > 20_000 { phase = 0 }
                }
                latitude += speed * dt * 0.7071 / 111_320
                longitude += speed * dt * 0.7071 / 74_500
                let fix = GNSSFix(
                    utc: UTCTimestamp(millisecondsSinceEpoch: utcStart + time), latitude: latitude + noise() * 2e-5,
                    longitude: longitude + noise() * 3e-5, altitude: Meters(520), speed: MetersPerSecond(abs(speed + noise() * 0.3)),
                    course: 45, mode: .fix3D, satellitesUsed: 9, hdop: 0.9)
                events.append(.fix(fix, at: LinkMilliseconds(time)))
            }
            // 50 advertisements a second, round-robin over the 20 advertisers.
            if time % 20 == 7 {
                let (identities, rssi) = advertisers[nextAdvertiser]
                nextAdvertiser = (nextAdvertiser + 1) % advertisers.count
                events.append(.advertisement(identities, rssiDBm: Int8(rssi + Int(noise() * 8)), at: LinkMilliseconds(time)))
            }
            if time % 1000 == 950 { events.append(.tick(at: LinkMilliseconds(time))) }
            time += 1
        }
        let split = events.firstIndex { $0.time.value >= 30_000 }!
        traffic.warmUp = Array(events[..<split])
        traffic.measured = Array(events[split...])
        return traffic
    }()

    /// A monitor with the session open and the warm-up handled.
    static func warmMonitor() -> DrivingMonitor {
        var monitor = DrivingMonitor(
            configuration: MonitorConfiguration(), directory: directory,
            fuel: FuelEstimator(model: FuelModel(profile: try! VehicleFuelProfile())))
        for event in shared.warmUp { monitor.handle(event) { _ in } }
        precondition(monitor.machine.driver == DriverID(1), "the warm-up opens driver 1's session")
        return monitor
    }
}

let eventsPerSecond = BenchmarkMetric.custom("events/s", polarity: .prefersLarger, useScalingFactor: false)
let eventsPerIteration = BenchmarkMetric.custom("events", polarity: .prefersLarger, useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
    // No metric that reads /proc inside the measured region (cpuTotal and instructions
    // allocate there), so that mallocCountTotal is the domain's own.
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, eventsPerSecond, eventsPerIteration],
        warmupIterations: 2, maxDuration: .seconds(5), maxIterations: 50)

    Benchmark("DrivingMonitor, 10 min of a session (10 Hz fixes, 50 adverts/s, ticks)") { benchmark in
        let events = Traffic.shared.measured
        var monitor = Traffic.warmMonitor()
        var outputs = 0
        let clock = ContinuousClock()
        benchmark.startMeasurement()
        let start = clock.now
        for event in events {
            monitor.handle(event) { _ in outputs += 1 }
        }
        let elapsed = clock.now - start
        benchmark.stopMeasurement()
        precondition(monitor.machine.driver == DriverID(1), "the session stays open throughout")
        blackHole(outputs)
        blackHole(monitor)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        benchmark.measurement(eventsPerSecond, Int(Double(events.count) / seconds))
        benchmark.measurement(eventsPerIteration, events.count)
    }
}
