import FairFuelCore
import FairFuelDomain
import FairFuelLink
import FairFuelParsers
import FairFuelServiceCore
import Foundation
import Testing
import TestSupport

/// Well-framed frames with hostile field values (uptimes that jump or wrap, extreme NMEA numbers
/// with valid checksums, random BLE and NDEF bytes, tags of every driver), line noise and gpsd
/// fixes with extreme finite values, at host times that stall and leap: the core must take
/// them all, and still answer `status`.
@Suite struct ServiceCoreHostileInputTests {
    static var inputCount: Int {
        Int(ProcessInfo.processInfo.environment["FAIRFUEL_FUZZ_CORE_INPUTS"] ?? "") ?? 20_000
    }

    static var seed: UInt64 {
        UInt64(ProcessInfo.processInfo.environment["FAIRFUEL_FUZZ_SEED"] ?? "") ?? 25
    }

    static let anna = UUID128(bytes: [UInt8](0..<16)[...])

    static func directory() throws -> DriverDirectory {
        var directory = DriverDirectory()
        directory.addDriver(.init(id: DriverID(1), name: "Anna"))
        directory.addDriver(.init(id: DriverID(2), name: "Ben"))
        directory.bind(tag: .uid(try TagUID(bytes: [4, 1, 2, 3])), to: DriverID(1))
        directory.bind(tag: .driver(anna), to: DriverID(2))
        return directory
    }

    static func pick<T>(_ values: [T], _ random: inout SeededGenerator) -> T { values[Int(random.next() % UInt64(values.count))] }

    static func number(_ random: inout SeededGenerator) -> String {
        pick(["", "0", "-0", "1", "22.4", "999999999", "99999999999999999", "-99999999999999999", "0.0000000000001",
              "123456789.123456789", "1e9", "-", ".", "5.", "359.9", "360", "-1", String(random.next() % 1_000_000)], &random)
    }

    static func sentence(_ random: inout SeededGenerator) -> String {
        let time = pick(["", "000000", "235960.999", "120000.00", "08\(random.next() % 60)00.5", "995959"], &random)
        let date = pick(["", "010100", "311299", "290200", "290201", "230326", "000000", "991399"], &random)
        let lat = pick(["", "0000.000", "8959.9999", "9000.0000", "4807.038", "0000.00000000000001"], &random)
        let lon = pick(["", "00000.000", "17959.9999", "18000.0000", "01131.000"], &random)
        func n() -> String { number(&random) }
        let body = pick([
            "GPRMC,\(time),A,\(lat),N,\(lon),E,\(n()),\(n()),\(date),\(n()),W",
            "GNRMC,\(time),A,\(lat),S,\(lon),W,\(n()),\(n()),\(date),,,D,V",
            "GPGGA,\(time),\(lat),N,\(lon),E,\(n()),\(n()),\(n()),\(n()),M,\(n()),M,,",
            "GPVTG,\(n()),T,,M,\(n()),N,\(n()),K,A",
            "GPGSA,A,\(n()),\(n()),\(n()),,,,,,,,,,,\(n()),\(n()),\(n())",
            "GPGSV,\(n()),\(n()),\(n()),\(n()),\(n()),\(n()),\(n())",
            "GPZDA,\(time),\(n()),\(n()),\(n()),00,00",
            "GPGLL,\(lat),N,\(lon),E,\(time),A,A",
            "GNGNS,\(time),\(lat),N,\(lon),E,AAN,\(n()),\(n()),\(n()),\(n()),,",
        ], &random)
        let sum = body.utf8.reduce(UInt8(0), ^)
        return "$\(body)*\(sum < 16 ? "0" : "")\(String(sum, radix: 16, uppercase: true))"
    }

    static func message(_ random: inout SeededGenerator, uptime: inout UInt32) -> LinkMessage {
        // Uptimes mostly move on, sometimes wrap, leap by up to 2^31 or restart.
        switch random.next() % 10 {
        case 0: uptime = UInt32(truncatingIfNeeded: random.next())
        case 1: uptime &+= UInt32.max / 2
        case 2: uptime = 0
        default: uptime &+= UInt32(random.next() % 2_000)
        }
        func bytes(_ count: Int) -> [UInt8] {
            var out: [UInt8] = []
            for _ in 0..<count { out.append(UInt8(truncatingIfNeeded: random.next())) }
            return out
        }
        switch random.next() % 12 {
        case 0:
            return .hello(Hello(
                firmwareMajor: 1, firmwareMinor: 0, firmwarePatch: 0, boardID: 1,
                capabilities: MCUCapabilities(rawValue: UInt16(truncatingIfNeeded: random.next())), uptimeMs: uptime, name: "x"))
        case 1, 2:
            return .heartbeat(Heartbeat(uptimeMs: uptime, mcuDropped: UInt16(truncatingIfNeeded: random.next()), supplyMillivolts: 12_000,
                                        flags: UInt8(truncatingIfNeeded: random.next())))
        case 3:
            return .power(PowerReport(mcuTimeMs: uptime, ignitionOn: random.next() % 2 == 0, supplyMillivolts: 0))
        case 4, 5, 6:
            return .nmea(NMEAReport(mcuTimeMs: uptime, sentence: sentence(&random)))
        case 7:
            let data: [UInt8] = random.next() % 2 == 0
                ? bytes(Int(random.next() % 32))
                : [26, 0xFF, 0x4C, 0x00, 0x02, 0x15] + bytes(21)  // an iBeacon frame with random fields
            return .bleAdvertisement(BLEAdvertisementReport(
                mcuTimeMs: uptime, address: BLEAddress(rawValue: random.next() & 0xFFFF_FFFF_FFFF), addressType: .public,
                advertisingType: .connectableUndirected, rssiDBm: Int8(truncatingIfNeeded: random.next()), data: data[...]))
        case 8:
            let uid: [UInt8] = random.next() % 2 == 0 ? [4, 1, 2, 3] : bytes(pick([4, 7, 10], &random))
            let ndef: [UInt8] = pick([[], DriverURI(driverID: anna).ndefMessage, bytes(Int(random.next() % 60))], &random)
            return .nfcTag(NFCTagReport(mcuTimeMs: uptime, technology: .iso14443A, atqa: 4, sak: 8, uid: uid[...], ndef: ndef[...]))
        case 9:
            return .log(MCULog(level: .warn, text: "x"))
        case 10:
            return .ack(Ack(ackedSeq: UInt16(truncatingIfNeeded: random.next()), status: .ok))
        default:
            return .unknown(rawType: 0x55, payload: bytes(Int(random.next() % 20))[...])
        }
    }

    static func fix(_ random: inout SeededGenerator) -> GNSSFix {
        func extreme(_ random: inout SeededGenerator) -> Double {
            pick([0, -0.0, 1e300, -1e300, 1e-300, 90, -90, 180, 181, 1e9, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                  Double(random.next() % 10_000) / 100], &random)
        }
        var fix = GNSSFix(utc: UTCTimestamp(millisecondsSinceEpoch: pick([0, 1_795_000_000_000, 253_402_300_799_000, -62_135_596_800_000], &random)
                                            + Int64(random.next() % 100_000)))
        fix.timeOfDay = fix.utc?.timeOfDay
        fix.mode = pick([.noData, .noFix, .fix2D, .fix3D], &random)
        fix.latitude = extreme(&random)
        fix.longitude = extreme(&random)
        fix.speed = MetersPerSecond(extreme(&random))
        fix.course = extreme(&random)
        fix.altitude = Meters(extreme(&random))
        fix.hdop = extreme(&random)
        fix.satellitesUsed = Int(random.next() % 100)
        return fix
    }

    @Test func hostileFramesAndFixesAreTakenAndStatusStillAnswers() throws {
        var random = SeededGenerator(seed: Self.seed)
        let core = try ServiceCore(
            settings: ServiceCoreSettings(port: "fuzz"), directory: try Self.directory(), vehicle: .familyCar,
            records: MemoryProvisioningRecords(directory: try Self.directory(), vehicle: .familyCar))
        var host: Int64 = 0
        var actions = 0
        var sessions = 0, points = 0, anchors = 0
        let perform: ServiceActions = { action in
            actions += 1
            guard case let .record(output) = action else { return }
            switch output {
            case .sessionStarted: sessions += 1
            case .tripPoint: points += 1
            case .utcAnchored: anchors += 1
            default: break
            }
        }
        core.linkOpened(opener: "fuzz", message: "fuzz", at: LinkMilliseconds(host), perform)
        var uptime: UInt32 = 0
        var seq: UInt16 = 0
        for _ in 0..<Self.inputCount {
            host += Self.pick([0, 1, 10, 1_000, 61_000, 3_600_000], &random)
            switch random.next() % 20 {
            case 0:
                core.gnssFix(Self.fix(&random), at: LinkMilliseconds(host), perform)
            case 1:
                core.timePassed(at: LinkMilliseconds(host), perform)
            case 2:
                let noise = (0..<Int(random.next() % 40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                core.received(noise[...], at: LinkMilliseconds(host), perform)
            default:
                seq &+= random.next() % 8 == 0 ? UInt16(truncatingIfNeeded: random.next()) : 1
                let wire = try FrameEncoder.encode(Self.message(&random, uptime: &uptime), seq: seq)
                core.received(wire[...], at: LinkMilliseconds(host), perform)
            }
        }
        core.finish(at: LinkMilliseconds(host), perform)
        print("core fuzz: \(Self.inputCount) inputs, seed \(Self.seed): \(sessions) sessions, \(points) trip points, \(anchors) UTC anchors")
        // The domain is reached, not only the decoder.
        #expect(sessions > 0 && points > 0 && anchors > 0)
        #expect(core.status(at: LinkMilliseconds(host)).beacons.count <= 16)
    }
}
