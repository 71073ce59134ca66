import FairFuelCore
import FairFuelLink

/// A realistic MCU-to-host byte stream: HELLO, heartbeats, 10 Hz NMEA, a crowd of
/// BLE advertisers, an NFC tap and ignition, cut into serial reads.
///
/// Used for the shipped sample capture, the decoder benchmark and soak runs;
/// deterministic for a given seed.
public struct SyntheticLinkTraffic: Sendable {
    public struct Options: Sendable {
        public var durationMs: Int64 = 20_000
        public var nmeaEpochsPerSecond = 10
        public var bleAdvertisementsPerSecond = 50
        /// Distinct advertisers in range (fobs, phones, other cars' beacons).
        public var advertiserCount = 20
        /// Garbage bursts, corrupted bytes and a dropped frame, for the receiver counters.
        public var lineNoise = false
        /// Largest bytes one serial read returns (a USB full-speed packet is 64).
        public var readChunkBytes = 64
        /// UTC at the start, for the NMEA sentences.
        public var startYear = 2026, startMonth = 11, startDay = 20
        public var startMillisecondsOfDay: Int64 = 8 * 3_600_000
        public var seed: UInt64 = 1

        public init() {}
    }

    /// One serial read: the capture time and the bytes it returned.
    public struct Read: Sendable {
        public var timeMs: UInt64
        public var bytes: [UInt8]
    }

    public let options: Options

    public init(options: Options) {
        self.options = options
    }

    /// The frames of the stream in time order: (capture time, message).
    public func messages() -> [(timeMs: Int64, message: LinkMessage)] {
        var random = SplitMix(seed: options.seed)
        var events: [(Int64, Int, LinkMessage)] = []  // (time, order, message)
        var order = 0
        func add(_ time: Int64, _ message: LinkMessage) {
            events.append((time, order, message))
            order += 1
        }
        let bootUptime: UInt32 = 12_000
        add(0, .hello(Hello(
            firmwareMajor: 1, firmwareMinor: 4, firmwarePatch: 2, boardID: 0x0101,
            capabilities: [.nfcReader, .bleScanner, .gnss, .nfcWrite, .ignitionSense],
            uptimeMs: bootUptime, name: "FairFuel MCU rev B")))
        add(40, .log(MCULog(level: .info, text: "scanner started, 20 ms window")))
        add(500, .power(PowerReport(mcuTimeMs: bootUptime + 500, ignitionOn: true, supplyMillivolts: 13_900)))
        var second: Int64 = 1000
        while second <= options.durationMs {
            add(second, .heartbeat(Heartbeat(
                uptimeMs: bootUptime + UInt32(second), mcuDropped: 0,
                supplyMillivolts: UInt16(13_800 + Int(random.next() % 200)), flags: 1)))
            second += 1000
        }

        // A car leaving a car park: accelerate to 14 m/s heading north-east.
        var latitude = 48.856_600
        var longitude = 2.352_200
        var speed = 0.0
        let epochMs = Int64(1000 / max(1, options.nmeaEpochsPerSecond))
        var time: Int64 = 200
        while time <= options.durationMs {
            speed = min(14, speed + 1.5 * Double(epochMs) / 1000)
            let step = speed * Double(epochMs) / 1000
            latitude += step * 0.7071 / 111_320
            longitude += step * 0.7071 / (111_320 * 0.6579)
            let utc = options.startMillisecondsOfDay + time
            let mcuTime = bootUptime + UInt32(time)
            add(time, .nmea(NMEAReport(mcuTimeMs: mcuTime, sentence: NMEASentenceWriter.rmc(
                utcMillisecondsOfDay: utc, year: options.startYear, month: options.startMonth,
                day: options.startDay, latitude: latitude, longitude: longitude,
                speedMetersPerSecond: speed, courseDegrees: 45))))
            add(time + 2, .nmea(NMEAReport(mcuTimeMs: mcuTime + 2, sentence: NMEASentenceWriter.gga(
                utcMillisecondsOfDay: utc, latitude: latitude, longitude: longitude, satellites: 9,
                hdop: 0.9, altitudeMeters: 35.2))))
            if time % 1000 == 200 {
                add(time + 4, .nmea(NMEAReport(mcuTimeMs: mcuTime + 4, sentence: NMEASentenceWriter.gsa(
                    satellites: [2, 5, 7, 13, 15, 20, 24, 28, 30], pdop: 1.6, hdop: 0.9, vdop: 1.3))))
            }
            time += epochMs
        }

        let advertisers = (0..<options.advertiserCount).map { Advertiser(index: $0, random: &random) }
        let adIntervalMs = 1000.0 / Double(max(1, options.bleAdvertisementsPerSecond))
        var adTime = 7.0
        var adIndex = 0
        while adTime <= Double(options.durationMs) {
            let advertiser = advertisers[adIndex % advertisers.count]
            let rssi = Int8(clamping: advertiser.rssiDBm + Int(random.next() % 9) - 4)
            add(Int64(adTime), .bleAdvertisement(BLEAdvertisementReport(
                mcuTimeMs: bootUptime + UInt32(adTime), address: advertiser.address,
                addressType: advertiser.addressType, advertisingType: advertiser.advertisingType,
                rssiDBm: rssi, data: advertiser.data[...])))
            adIndex += 1
            adTime += adIntervalMs
        }

        // A driver taps a key fob holding the driver URI record.
        let uri = Array("fairfuel://driver/3f2a1b4c-5d6e-4f70-8192-a3b4c5d6e7f8".utf8)
        let ndef: [UInt8] = [0xD1, 0x01, UInt8(uri.count + 1), 0x55, 0x00] + uri
        add(min(3000, options.durationMs), .nfcTag(NFCTagReport(
            mcuTimeMs: bootUptime + 3000, technology: .iso14443A, atqa: 0x0044, sak: 0x00,
            uid: [0x04, 0xA2, 0x2B, 0x7A, 0x3C, 0x5D, 0x80][...], ndef: ndef[...])))

        events.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        return events.map { ($0.0, $0.2) }
    }

    /// The stream as serial reads: frames encoded in order, cut at `readChunkBytes`
    /// and at 5 ms poll boundaries, with line noise when asked.
    public func reads() -> [Read] {
        var random = SplitMix(seed: options.seed &+ 99)
        var encoder = FrameEncoder(firstSeq: 0)
        var reads: [Read] = []
        var pending: [UInt8] = []
        var pendingTime: Int64 = 0
        func flush() {
            var start = 0
            while start < pending.count {
                let end = min(pending.count, start + options.readChunkBytes)
                reads.append(Read(timeMs: UInt64(pendingTime), bytes: Array(pending[start..<end])))
                start = end
            }
            pending.removeAll(keepingCapacity: true)
        }
        var frameIndex = 0
        for (time, message) in messages() {
            let pollTime = (time / 5) * 5
            if pollTime != pendingTime {
                flush()
                pendingTime = pollTime
            }
            var frame = (try? encoder.encode(message)) ?? []
            frameIndex += 1
            if options.lineNoise {
                switch random.next() % 200 {
                case 0: pending += (0..<Int(random.next() % 40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                case 1: frame[Int(random.next() % UInt64(frame.count - 1))] ^= 0x20  // bit error
                case 2: frame = []  // a frame lost on the line
                default: break
                }
            }
            pending += frame
        }
        flush()
        return reads
    }

    /// The whole `.ffcap` text (rx only).
    public func captureText() -> String {
        var text = CaptureFormat.header + "\n"
        text += "# synthetic drive: \(options.durationMs) ms, \(options.nmeaEpochsPerSecond) Hz NMEA, "
            + "\(options.bleAdvertisementsPerSecond) adverts/s from \(options.advertiserCount) advertisers, seed \(options.seed)\n"
        for read in reads() {
            text += CaptureFormat.line(timeMs: read.timeMs, direction: .rx, bytes: read.bytes) + "\n"
        }
        return text
    }
}

/// One BLE advertiser of the synthetic crowd.
struct Advertiser {
    var address: BLEAddress
    var addressType: BLEAddressType
    var advertisingType: BLEAdvertisingType
    var rssiDBm: Int
    var data: [UInt8]

    init(index: Int, random: inout SplitMix) {
        rssiDBm = -55 - Int(random.next() % 40)
        let flags: [UInt8] = [0x02, 0x01, 0x06]
        switch index % 4 {
        case 0:  // iBeacon key fob
            address = BLEAddress(rawValue: 0xC0_00_00_00_00_00 | random.next() & 0x3F_FF_FF_FF_FF_FF)
            addressType = .random
            advertisingType = .nonConnectableUndirected
            let uuid: [UInt8] = [0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2, 0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0]
            data = flags + [0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15] + uuid
                + [0x00, UInt8(index), 0x00, UInt8(index * 3 & 0xFF), 0xC5]
        case 1:  // Eddystone-UID
            address = BLEAddress(rawValue: 0x00_1A_7D_00_00_00 | UInt64(index))
            addressType = .public
            advertisingType = .nonConnectableUndirected
            data = flags + [0x03, 0x03, 0xAA, 0xFE, 0x17, 0x16, 0xAA, 0xFE, 0x00, 0xEE]
                + [0x8B, 0x0C, 0xA7, 0x50, 0xE1, 0x8F, 0x4D, 0x95, 0x0A, 0x1C]
                + [0x00, 0x00, 0x00, 0x00, 0x00, UInt8(index)] + [0x00, 0x00]
        case 2:  // a phone: resolvable private address, manufacturer data
            address = BLEAddress(rawValue: 0x40_00_00_00_00_00 | random.next() & 0x3F_FF_FF_FF_FF_FF)
            addressType = .random
            advertisingType = .connectableUndirected
            data = flags + [0x0B, 0xFF, 0x4C, 0x00, 0x10, 0x06, 0x13, 0x1D, 0x5A, 0x3B, 0x91, 0x08]
        default:  // a named sensor with a 16-bit service
            address = BLEAddress(rawValue: 0xD4_00_00_00_00_00 | UInt64(index))
            addressType = .random
            advertisingType = .scanResponse
            data = [0x09, 0x09] + Array("TPMS \(index % 10)AB".utf8.prefix(8)) + [0x03, 0x02, 0x0F, 0x18]
        }
    }
}

/// SplitMix64: small, fast and deterministic.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
