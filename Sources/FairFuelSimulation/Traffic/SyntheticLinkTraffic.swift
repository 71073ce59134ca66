import FairFuelCore
import FairFuelLink

/// A realistic MCU-to-host byte stream: HELLO, heartbeats, 10 Hz NMEA, a crowd of
/// BLE advertisers, an NFC tap and ignition, cut into serial reads.
///
/// Used for the shipped sample capture and the decoder benchmark; deterministic for a given
/// seed. A front-end of `MCUTrafficGenerator`, which frames the messages and cuts the reads.
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
        let generator = MCUTrafficGenerator()
        var events: [(Int64, Int, LinkMessage)] = []  // (time, order, message)
        var order = 0
        func add(_ time: Int64, _ message: LinkMessage) {
            events.append((time, order, message))
            order += 1
        }
        let bootUptime: UInt32 = 12_000
        add(0, generator.hello(uptimeMs: bootUptime))
        add(40, .log(MCULog(level: .info, text: "scanner started, 20 ms window")))
        add(500, MCUTrafficGenerator.power(uptimeMs: bootUptime + 500, ignitionOn: true, supplyMillivolts: 13_900))
        var second: Int64 = 1000
        while second <= options.durationMs {
            add(second, MCUTrafficGenerator.heartbeat(
                uptimeMs: bootUptime + UInt32(second), supplyMillivolts: UInt16(13_800 + Int(random.next() % 200)), ignitionOn: true))
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
            add(time, MCUTrafficGenerator.nmea(uptimeMs: mcuTime, NMEASentenceWriter.rmc(
                utcMillisecondsOfDay: utc, year: options.startYear, month: options.startMonth,
                day: options.startDay, latitude: latitude, longitude: longitude,
                speedMetersPerSecond: speed, courseDegrees: 45)))
            add(time + 2, MCUTrafficGenerator.nmea(uptimeMs: mcuTime + 2, NMEASentenceWriter.gga(
                utcMillisecondsOfDay: utc, latitude: latitude, longitude: longitude, satellites: 9,
                hdop: 0.9, altitudeMeters: 35.2)))
            if time % 1000 == 200 {
                add(time + 4, MCUTrafficGenerator.nmea(uptimeMs: mcuTime + 4, NMEASentenceWriter.gsa(
                    satellites: [2, 5, 7, 13, 15, 20, 24, 28, 30], pdop: 1.6, hdop: 0.9, vdop: 1.3)))
            }
            time += epochMs
        }

        let advertisers = (0..<options.advertiserCount).map { CrowdAdvertiser(index: $0, random: &random) }
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
        add(min(3000, options.durationMs), MCUTrafficGenerator.tag(
            uptimeMs: bootUptime + 3000, uid: [0x04, 0xA2, 0x2B, 0x7A, 0x3C, 0x5D, 0x80][...], ndef: ndef[...]))

        events.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        return events.map { ($0.0, $0.2) }
    }

    /// The stream as serial reads: frames encoded in order, cut at `readChunkBytes`
    /// and at 5 ms poll boundaries, with line noise when asked.
    public func reads() -> [Read] {
        var random = SplitMix(seed: options.seed &+ 99)
        var generator = MCUTrafficGenerator(readChunkBytes: options.readChunkBytes, pollIntervalMs: 5)
        var reads: [Read] = []
        let collect: MCUTrafficGenerator.ReadHandler = { reads.append(Read(timeMs: $0, bytes: Array($1))) }
        for (time, message) in messages() {
            var frame = generator.frame(message) ?? []
            if options.lineNoise {
                switch random.next() % 200 {
                case 0: generator.send(bytes: (0..<Int(random.next() % 40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }, at: time, collect)
                case 1: frame[Int(random.next() % UInt64(frame.count - 1))] ^= 0x20  // bit error
                case 2: frame = []  // a frame lost on the line
                default: break
                }
            }
            generator.send(bytes: frame, at: time, collect)
        }
        generator.flush(collect)
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
