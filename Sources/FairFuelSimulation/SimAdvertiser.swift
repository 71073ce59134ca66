import FairFuelCore
import FairFuelLink
import FairFuelParsers
import RealModule

/// An advertiser while the virtual MCU runs: when it next advertises, how it is heard,
/// and the bytes it sends.
///
/// RSSI follows a log-distance path loss from the beacon's measured power (exponent 2.0
/// in the cabin, 2.4 outside, 7 dB more for the car's body when outside), slow shadowing
/// (an AR(1) process, 5 s correlation) and Rician fast fading (K = 8 inside, 2 outside).
struct SimAdvertiser: Sendable {
    let plan: AdvertiserPlan
    var nextMs: Int64
    var segmentIndex = 0
    var random: SplitMix
    var shadowDB = 0.0
    var lastHeardMs: Int64?
    let addressType: BLEAddressType
    let advertisingType: BLEAdvertisingType
    let iBeaconUUID: [UInt8]?
    let eddystoneNamespace: [UInt8]?
    /// Static part of the advertising data; phones and tags change a few bytes per address.
    let template: [UInt8]
    let baseAddress: UInt64
    /// Private addresses change this often (0: never).
    let rotationMs: Int64
    let label: String

    init(plan: AdvertiserPlan) {
        self.plan = plan
        label = plan.label
        random = SplitMix(seed: plan.seed)
        nextMs = plan.segments.first?.startMs ?? .max
        let flags: [UInt8] = [0x02, 0x01, 0x06]
        var seedRandom = SplitMix(seed: plan.seed ^ 0xADD2_E55)
        let staticRandom = 0xC0_00_00_00_00_00 | (seedRandom.next() & 0x3F_FF_FF_FF_FF_FF)
        var type: BLEAddressType = .random
        var advType: BLEAdvertisingType = .nonConnectableUndirected
        var uuid: [UInt8]?
        var namespace: [UInt8]?
        var data: [UInt8]
        var address = staticRandom
        var rotation: Int64 = 0

        func beaconData(_ identity: BeaconIdentity, power: Double) -> [UInt8] {
            let measured = UInt8(bitPattern: Int8(clamping: Int(power.rounded())))
            switch identity {
            case .iBeacon(let proximity, let major, let minor):
                uuid = proximity.bytes
                return flags + [0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15] + proximity.bytes
                    + [UInt8(major >> 8), UInt8(major & 0xFF), UInt8(minor >> 8), UInt8(minor & 0xFF), measured]
            case .eddystoneUID(let ns, let instance):
                let nsBytes = (0..<10).map { ns.byte(at: $0) }
                namespace = nsBytes
                let instanceBytes = (0..<6).map { UInt8(truncatingIfNeeded: instance.rawValue >> UInt64(40 - 8 * $0)) }
                return flags + [0x03, 0x03, 0xAA, 0xFE, 0x17, 0x16, 0xAA, 0xFE, 0x00, 0xEC] + nsBytes + instanceBytes + [0x00, 0x00]
            case .altBeacon(let id):
                let idBytes = (0..<20).map { index -> UInt8 in
                    if index < 8 { return UInt8(truncatingIfNeeded: id.high >> UInt64(56 - 8 * index)) }
                    if index < 16 { return UInt8(truncatingIfNeeded: id.middle >> UInt64(56 - 8 * (index - 8))) }
                    return UInt8(truncatingIfNeeded: id.low >> UInt32(24 - 8 * (index - 16)))
                }
                return flags + [0x1B, 0xFF, 0x18, 0x01, 0xBE, 0xAC] + idBytes + [measured, 0x00]
            case .address(let fixed):
                address = fixed.rawValue
                type = fixed.topBits == 0b11 ? .random : .public
                advType = .connectableUndirected
                return flags + [0x07, 0x09] + Array("FobTag".utf8) + [0x04, 0xFF, 0x59, 0x00, UInt8(truncatingIfNeeded: fixed.rawValue)]
            }
        }

        switch plan.source {
        case .fob(_, let identity):
            data = beaconData(identity, power: plan.powerDBm)
        case .stranger(let kind, let identity):
            if let identity {
                data = beaconData(identity, power: plan.powerDBm)
            } else {
                var body = (0..<30).map { _ in UInt8(truncatingIfNeeded: seedRandom.next()) }
                switch kind {
                case .phone:
                    advType = .connectableUndirected
                    rotation = 15 * 60_000
                    data = [0x02, 0x01, 0x1A, 0x0A, 0xFF, 0x4C, 0x00, 0x10, 0x05, 0x01, 0x1C] + body.prefix(3)
                case .android:
                    advType = .connectableUndirected
                    rotation = 15 * 60_000
                    data = [0x02, 0x01, 0x1A, 0x06, 0x16, 0x2C, 0xFE] + body.prefix(3)
                case .watch:
                    advType = .connectableUndirected
                    rotation = 15 * 60_000
                    data = [0x02, 0x01, 0x1A, 0x0B, 0xFF, 0x75, 0x00, 0x42, 0x04, 0x01, 0x80, 0x60] + body.prefix(3)
                case .tag:
                    rotation = 24 * 3_600_000
                    data = [0x1E, 0xFF, 0x4C, 0x00, 0x12, 0x19, 0x10] + body.prefix(22) + [0x00, 0x00]
                case .ibeacon:
                    body[6] = body[6] & 0x0F | 0x40
                    data = beaconData(.iBeacon(proximityUUID: UUID128(bytes: body[0..<16]), major: UInt16(body[16]), minor: UInt16(body[17])), power: plan.powerDBm)
                case .eddystone:
                    data = beaconData(.eddystoneUID(namespace: EddystoneNamespace(bytes: body[0..<10]), instance: EddystoneInstance(bytes: body[10..<16])), power: plan.powerDBm)
                case .sensor:
                    advType = .scanResponse
                    data = [0x07, 0x09] + Array("TPMS".utf8) + [0x30 + body[0] % 10, 0x41 + body[1] % 26] + [0x03, 0x02, 0x0F, 0x18]
                }
                if rotation > 0 && kind != .tag {
                    address = 0x40_00_00_00_00_00 | (staticRandom & 0x3F_FF_FF_FF_FF_FF)
                }
            }
        }
        addressType = type
        advertisingType = advType
        iBeaconUUID = uuid
        eddystoneNamespace = namespace
        template = data
        baseAddress = address
        rotationMs = rotation
    }

    /// The address at `time` (private addresses rotate).
    func address(at time: Int64) -> BLEAddress {
        guard rotationMs > 0 else { return BLEAddress(rawValue: baseAddress) }
        var slot = SplitMix(seed: plan.seed ^ UInt64(time / rotationMs) &* 0x9E37_79B9_7F4A_7C15)
        let topBits: UInt64 = (baseAddress >> 46) == 0b01 ? 0x40_00_00_00_00_00 : 0xC0_00_00_00_00_00
        return BLEAddress(rawValue: topBits | (slot.next() & 0x3F_FF_FF_FF_FF_FF))
    }

    /// Whether a BLE_FILTER lets this advertiser's reports through (an empty filter passes everything).
    func passes(_ filter: [BLEFilter.Entry], at time: Int64) -> Bool {
        guard !filter.isEmpty else { return true }
        let addressBytes = address(at: time).bytes
        for entry in filter {
            switch entry {
            case .address(let bytes): if bytes == addressBytes { return true }
            case .iBeaconUUID(let bytes): if let iBeaconUUID, bytes == iBeaconUUID { return true }
            case .eddystoneNamespace(let bytes): if let eddystoneNamespace, bytes == eddystoneNamespace { return true }
            }
        }
        return false
    }

    /// Handles the advertisement due at `nextMs`: returns its report when the scanner hears it,
    /// and schedules the next one (skipping to the next stretch in range).
    mutating func advertise(radio: RadioSettings) -> (rssi: Int8, data: [UInt8])? {
        let time = nextMs
        let segments = plan.segments
        while segmentIndex < segments.count && segments[segmentIndex].endMs <= time { segmentIndex += 1 }
        var heard: (Int8, [UInt8])?
        if segmentIndex < segments.count && segments[segmentIndex].startMs <= time {
            let segment = segments[segmentIndex]
            let gap = Double(time - (lastHeardMs ?? time - 60_000)) / 1000
            lastHeardMs = time
            let rho = Double.exp(-gap / 5)
            shadowDB = rho * shadowDB + radio.shadowingDB * (1 - rho * rho).squareRoot() * random.gaussian()
            let distance = max(segment.distance(at: time), 0.3)
            let exponent = segment.inside ? 2.0 : 2.4
            var rssi = plan.powerDBm - 10 * exponent * Double.log10(distance) + shadowDB - (segment.inside ? 0 : 7)
            let k = segment.inside ? 8.0 : 2.0
            let direct = (k / (k + 1)).squareRoot()
            let scatter = (1 / (2 * (k + 1))).squareRoot()
            let i = direct + scatter * random.gaussian()
            let q = scatter * random.gaussian()
            rssi += 10 * Double.log10(max(i * i + q * q, 1e-6))
            if rssi >= radio.sensitivityDBm && !random.chance(radio.missRate) {
                heard = (Int8(clamping: Int(rssi.rounded())), payload(at: time))
            }
        }
        // Advertising interval plus the 0-10 ms random advDelay of the Bluetooth spec.
        var next = time + plan.intervalMs + Int64(random.next() % 11)
        while segmentIndex < segments.count && segments[segmentIndex].endMs <= next { segmentIndex += 1 }
        if segmentIndex < segments.count {
            next = max(next, segments[segmentIndex].startMs)
        } else {
            next = .max
        }
        nextMs = next
        return heard
    }

    /// The advertising data at `time`: rotating advertisers change their payload with the address.
    func payload(at time: Int64) -> [UInt8] {
        guard rotationMs > 0, template.count > 3 else { return template }
        var data = template
        var slot = SplitMix(seed: plan.seed ^ 0x5107 ^ UInt64(time / rotationMs))
        for index in (data.count - 3)..<data.count { data[index] = UInt8(truncatingIfNeeded: slot.next()) }
        return data
    }
}
