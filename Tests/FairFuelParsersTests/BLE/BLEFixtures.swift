import FairFuelCore
import Foundation
import TestSupport

/// Test vectors for the BLE parsers: copied permissive ones from the bundle, GPL ones from `../shared`.
enum BLEFixtures {
    /// `Fixtures/ble/<source>/<file>` from the test bundle.
    static func bundled(_ source: String, _ file: String) throws -> URL {
        guard let root = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            throw VectorFileError.missing("Fixtures in the test bundle")
        }
        return root.appendingPathComponent("ble").appendingPathComponent(source)
            .appendingPathComponent(file)
    }

    /// theengs' vectors are GPL-3.0, so they are read from the corpus beside the package, never copied.
    static let theengsPath = PackagePaths.shared + "/corpus/ble/theengs/theengs_vectors.jsonl"
    static var theengsPresent: Bool { FileManager.default.fileExists(atPath: theengsPath) }

    /// One JSON object per non-empty line.
    static func jsonLines(at url: URL) throws -> [[String: Any]] {
        let text = try String(contentsOf: url, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            else { throw VectorFileError.malformed(String(line.prefix(80))) }
            return object
        }
    }

    static func bytes(_ hex: String) throws -> [UInt8] {
        let compact = hex.filter { !$0.isWhitespace }
        guard let bytes = Hex.bytes(compact) else { throw VectorFileError.malformed(hex) }
        return bytes
    }

    /// One AD structure's bytes (`length type value…`).
    static func structure(_ type: UInt8, _ value: [UInt8]) -> [UInt8] {
        [UInt8(value.count + 1), type] + value
    }
}

enum VectorFileError: Error, CustomStringConvertible {
    case missing(String)
    case malformed(String)

    var description: String {
        switch self {
        case .missing(let what): "missing fixture: \(what)"
        case .malformed(let what): "malformed fixture: \(what)"
        }
    }
}

/// One advertising report from an HCI LE Meta event, as the corpus' HCI vectors carry them.
///
/// Legacy report (subevent 0x02): num_reports, event_type, addr_type, addr (6, LSB first),
/// data_len, data, rssi. Extended report (0x0D): num_reports, event_type (2), addr_type, addr,
/// primary_phy, secondary_phy, sid, tx_power, rssi, periodic interval (2), direct addr type and
/// addr (7), data_len, data.
struct HCIAdvertisingReport {
    var subevent: UInt8
    var addressType: UInt8
    var address: BLEAddress
    var rssiDBm: Int8
    var data: ArraySlice<UInt8>

    init(packet: [UInt8]) throws {
        guard packet.count >= 5, packet[0] == 0x04, packet[1] == 0x3E,
            Int(packet[2]) == packet.count - 3, packet[4] == 1
        else { throw VectorFileError.malformed("HCI header of \(Hex.string(packet.prefix(8)))") }
        subevent = packet[3]
        switch subevent {
        case 0x02:
            guard packet.count >= 14 else { throw VectorFileError.malformed("short legacy report") }
            addressType = packet[6]
            address = BLEAddress(bytes: packet[7..<13].reversed())
            let length = Int(packet[13])
            guard packet.count == 14 + length + 1 else { throw VectorFileError.malformed("legacy length") }
            data = packet[14..<(14 + length)]
            rssiDBm = Int8(bitPattern: packet[14 + length])
        case 0x0D:
            guard packet.count >= 29 else { throw VectorFileError.malformed("short extended report") }
            addressType = packet[7]
            address = BLEAddress(bytes: packet[8..<14].reversed())
            rssiDBm = Int8(bitPattern: packet[18])
            let length = Int(packet[28])
            guard packet.count == 29 + length else { throw VectorFileError.malformed("extended length") }
            data = packet[29...]
        default:
            throw VectorFileError.malformed("LE subevent \(subevent)")
        }
    }
}
