import FairFuelCore
import FairFuelLink

/// Other people's phones, fobs, watches and shop beacons around the car.
///
/// Every stranger gets a fresh identity (so a week brings hundreds of distinct
/// advertisers); about a third of them carry a stable identity the presence table
/// tracks (another FairFuel family's fob, a static-address watch, a shop's Eddystone).
struct Crowd: Sendable {
    struct Stranger: Sendable {
        var advert: Advert
        var distance: Double
        /// m/s, positive away from the car.
        var drift: Double
        /// Extra loss: inside another car, or behind a wall.
        var lossDB: Double
        var untilMs: Int64
        var intervalMs: Double
        var nextMs: Double
    }

    static let maximumConcurrent = 10
    private(set) var strangers: [Stranger] = []
    private var serial: UInt64 = 0
    /// Distinct strangers so far.
    private(set) var spawned = 0

    mutating func removeAll() { strangers.removeAll() }

    /// Moves the crowd by one second starting at `t0` and emits what the scanner hears.
    mutating func second(
        at t0: Int64, surroundings: Surroundings, scale: Double, random: inout SeededGenerator,
        radio: RadioModel, emit: (Int64, Advert) -> Void
    ) {
        strangers.removeAll { $0.untilMs <= t0 || $0.distance > 80 }
        if scale > 0, strangers.count < Self.maximumConcurrent,
            random.chance(surroundings.arrivalsPerMinute * scale / 60)
        {
            strangers.append(spawn(at: t0, surroundings: surroundings, random: &random))
        }
        for index in strangers.indices {
            strangers[index].distance = max(1.5, strangers[index].distance + strangers[index].drift)
            while strangers[index].nextMs < Double(t0 + 1000) {
                let at = strangers[index].nextMs
                strangers[index].nextMs += strangers[index].intervalMs + random.uniform(0...10)
                guard at >= Double(t0), !random.chance(0.3) else { continue }
                let rssi = radio.rssi(
                    inside: false, distance: strangers[index].distance, extraLossDB: strangers[index].lossDB, shadowDB: 0,
                    random: &random)
                guard let heard = RadioModel.reported(rssi) else { continue }
                var advert = strangers[index].advert
                advert.rssiDBm = heard
                emit(Int64(at), advert)
            }
        }
    }

    private mutating func spawn(at t0: Int64, surroundings: Surroundings, random: inout SeededGenerator) -> Stranger {
        serial += 1
        spawned += 1
        let low = random.next() & 0xFF_FFFF_FFFF
        let roll = random.unit()
        var advert: Advert
        if roll < 0.45 {
            // A phone: resolvable private address, Apple continuity data; no stable identity.
            advert = Advert(
                address: BLEAddress(rawValue: 0x40_00_00_00_00_00 | low), addressType: .random,
                advertisingType: .connectableUndirected, rssiDBm: 0,
                data: [0x02, 0x01, 0x1A, 0x0A, 0xFF, 0x4C, 0x00, 0x10, 0x05, 0x0B, 0x1C, UInt8(serial & 0xFF), 0x3E, 0x77])
        } else if roll < 0.65 {
            // Another family's fob, same make: the FairFuel UUID with another major/minor.
            let minor = UInt16(truncatingIfNeeded: 1_000 + serial)
            advert = Advert(
                address: BLEAddress(rawValue: 0xC0_00_00_00_00_00 | low), addressType: .random,
                advertisingType: .nonConnectableUndirected, rssiDBm: 0,
                data: [0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15] + ScenarioFamily.fobUUID.bytes
                    + [0x00, 0x07, UInt8(minor >> 8), UInt8(minor & 0xFF), 0xC5])
        } else if roll < 0.8 {
            // A watch with a static random address and a name.
            advert = Advert(
                address: BLEAddress(rawValue: 0xC0_00_00_00_00_00 | low), addressType: .random,
                advertisingType: .connectableUndirected, rssiDBm: 0,
                data: [0x02, 0x01, 0x06, 0x07, 0x09] + Array("Watch".utf8) + [0x03, 0x02, 0x0D, 0x18])
        } else if roll < 0.9 {
            // A shop's Eddystone-UID beacon on a public address.
            advert = Advert(
                address: BLEAddress(rawValue: 0x00_1A_7D_00_00_00 | (low & 0xFF_FFFF)), addressType: .public,
                advertisingType: .nonConnectableUndirected, rssiDBm: 0,
                data: [0x02, 0x01, 0x06, 0x03, 0x03, 0xAA, 0xFE, 0x17, 0x16, 0xAA, 0xFE, 0x00, 0xF0]
                    + [0x8B, 0x0C, 0xA7, 0x50, 0xE1, 0x8F, 0x4D, 0x95, 0x0A, 0x1C]
                    + [0, 0, UInt8(serial >> 24 & 0xFF), UInt8(serial >> 16 & 0xFF), UInt8(serial >> 8 & 0xFF), UInt8(serial & 0xFF)]
                    + [0x00, 0x00])
        } else {
            // A car stereo or headset on its public address.
            advert = Advert(
                address: BLEAddress(rawValue: 0x00_25_BF_00_00_00 | (low & 0xFF_FFFF)), addressType: .public,
                advertisingType: .scannableUndirected, rssiDBm: 0,
                data: [0x02, 0x01, 0x02, 0x05, 0x09] + Array("HEAD".utf8))
        }
        let driving = surroundings.isDriving
        let lifetime = driving ? random.uniform(4...40) : random.uniform(20...400)
        return Stranger(
            advert: advert, distance: driving ? random.uniform(3...25) : random.uniform(2...30),
            drift: driving ? random.uniform(-0.5...1.5) : random.uniform(-0.3...0.6),
            lossDB: driving ? 8 : random.uniform(0...6), untilMs: t0 + Int64(lifetime * 1000),
            intervalMs: random.uniform(600...2_000), nextMs: Double(t0) + random.uniform(0...1000))
    }
}
