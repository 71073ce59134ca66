// BLE advertisement parsing on one core: identities (the service's hot path) and a full decode,
// over a mix of what a dongle in a car hears. Each measured iteration handles
// `advertisementsPerIteration` advertisements (scaling factor .kilo), so mallocs per
// advertisement is mallocCountTotal / 1000; the target is 0, as the parsers only take slices
// of the frame buffer. A third benchmark builds display Strings and so does allocate.
//
// Run: cd Benchmarks && swift package --scratch-path .build-ble benchmark --target BLEParsing
// The table shows figures per advertisement (marked *, rounded); add --scale to see the
// unrounded totals per iteration of 1000 advertisements.
import Benchmark
import FairFuelCore
import FairFuelParsers

/// One received advertisement as the link codec hands it over: its AD bytes are a slice of a
/// frame buffer (here a buffer with a fake 13-byte BLE_ADV header in front).
struct Advertisement: Sendable {
    let address: BLEAddress
    let addressType: BLEAddressType
    let frame: [UInt8]

    var data: ArraySlice<UInt8> { frame[13...] }

    init(_ address: String, _ addressType: BLEAddressType, _ hex: String) {
        self.address = BLEAddress(address)!
        self.addressType = addressType
        frame = [UInt8](repeating: 0, count: 13) + Hex.bytes(hex)!
    }
}

/// The mix, from the test fixtures (Tests/FairFuelParsersTests/Fixtures/ble): 8 beacon frames
/// and 8 phones and gadgets with private addresses, names and manufacturer data.
let mix: [Advertisement] = [
    // iBeacons (ble_monitor test_ibeacon_sensor, test_tilt_red; ibeacon-ble SERVICE_INFO).
    Advertisement("6A:6B:C9:A2:3E:43", .random, "02011a1aff4c000215e2c56db5dffb48d2b060d0f5a71096e000640000c5"),
    Advertisement("04:A3:16:9B:09:5A", .public, "1aff4c000215a495bb10c5b14b44b5121370f02d74de004403f8c5"),
    Advertisement("C4:11:22:33:44:55", .random, "0201061aff4c000215426c7565436861726d426561636f6e730efe1355c5"),
    // Eddystone UID, URL, TLM (aioblescan test_eddystone_uid/url; ibeacon-ble SERVICE_INFO).
    Advertisement("F1:55:90:65:29:DC", .random, "0201060303aafe1516aafe00f600000000000000000063000000000058"),
    Advertisement("F1:55:90:65:29:DC", .random, "0201060303aafe1516aafe10f6036d616b65636f6465002361626f7574"),
    Advertisement("C4:11:22:33:44:55", .random, "0201060303aafe1116aafe20000bfe1c000000070800003e7c"),
    // AltBeacon (ble_monitor test_altbeacon_sensor); a thermometer's service data (aioblescan atcmi).
    Advertisement("6D:40:27:85:98:05", .random, "1bffffffbeacd3162f5af3ee494799db09756062d0fc005a0005c400"),
    Advertisement("A4:C1:38:40:52:38", .public, "10161a18a4c13840523800f325550b9fde"),
    // Phones and gadgets (bluetooth-data-tools: unknown_apple_device, short_local_name,
    // Prodigio, Oral-B, PineTime, Moat, fd3d).
    Advertisement("5A:11:22:33:44:55", .random, "02011a020a050aff4c0010050a1c77f95b"),
    Advertisement("4B:22:33:44:55:66", .random, "02010616ff4c00063100e4c49beefb3e05000d0001026311206504084e616e"),
    Advertisement("7C:33:44:55:66:77", .random, "020a04160950726f646967696f5f443833353637413446354135"),
    Advertisement("7C:33:44:55:66:77", .random, "02010611061bc5d5a50200aa9de3112af21019aa0609ff0225440980070002"),
    Advertisement("1D:44:55:66:77:88", .random, "0201060effdc0006326b035200010409000403020dfe"),
    Advertisement("E5:55:66:77:88:99", .random, "090950696e6554696d6502010611079ecadc240ee5a92833343093f3a3b501"),
    Advertisement("66:66:77:88:99:AA", .random, "0201060303001015160010df79e3a612b31550706354621c6fb90bffff"),
    Advertisement("57:77:88:99:AA:BB", .random, "0201060fff69096055f93c34dad80010310000" + "06163dfd670064"),
]

let advertisementsPerIteration = 1000

let benchmarks: @Sendable () -> Void = {
    // No metric that reads /proc inside the measured region (cpuTotal, instructions allocate),
    // so that mallocCountTotal counts the parsers' own allocations.
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal], warmupIterations: 10, scalingFactor: .kilo,
        maxDuration: .seconds(3), maxIterations: 10_000)
    precondition(BenchmarkScalingFactor.kilo.rawValue == advertisementsPerIteration)

    // The hot path: the identities to look up for each advertisement.
    Benchmark("BLE identities (1000 advertisements)", configuration: configuration) { benchmark in
        var index = 0
        for _ in benchmark.scaledIterations {
            let advertisement = mix[index]
            index = index == mix.count - 1 ? 0 : index + 1
            let identities = BeaconIdentities(
                address: advertisement.address, addressType: advertisement.addressType, data: advertisement.data)
            blackHole(identities)
        }
    }

    // Everything the parsers can read from an advertisement, short of building Strings.
    Benchmark("BLE full decode (1000 advertisements)", configuration: configuration) { benchmark in
        var index = 0
        for _ in benchmark.scaledIterations {
            let advertisement = mix[index]
            index = index == mix.count - 1 ? 0 : index + 1
            let data = AdvertisingData(advertisement.data)
            blackHole(data.flags)
            blackHole(data.txPowerDBm)
            blackHole(data.localNameBytes)
            for uuid in data.serviceUUIDs { blackHole(uuid) }
            for manufacturerData in data.manufacturerData {
                blackHole(IBeacon(manufacturerData))
                blackHole(AltBeacon(manufacturerData))
            }
            for serviceData in data.serviceData { blackHole(EddystoneFrame(serviceData)) }
            blackHole(
                BeaconIdentities(
                    address: advertisement.address, addressType: advertisement.addressType, data: advertisement.data))
        }
    }

    // For logs and the CLI: the same with display Strings (names, URLs, identity specs), which
    // allocate when longer than 15 bytes; shows that the malloc counter does count.
    Benchmark("BLE decode with display strings (1000 advertisements)", configuration: configuration) { benchmark in
        var index = 0
        for _ in benchmark.scaledIterations {
            let advertisement = mix[index]
            index = index == mix.count - 1 ? 0 : index + 1
            let data = AdvertisingData(advertisement.data)
            blackHole(data.localName)
            for serviceData in data.serviceData {
                if case .url(let url)? = EddystoneFrame(serviceData) { blackHole(url.url) }
            }
            for identity in BeaconIdentities(
                address: advertisement.address, addressType: advertisement.addressType, data: advertisement.data)
            {
                blackHole(identity.spec)
            }
        }
    }
}
