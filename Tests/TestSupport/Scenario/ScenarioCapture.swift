import FairFuelCore
import FairFuelLink
import FairFuelParsers
import FairFuelSimulation

/// Writes scenario events as a `.ffcap` capture: each MCU report encoded as the link
/// frames the MCU would send (HELLO, HEARTBEAT, POWER, NMEA RMC and GGA, BLE_ADV,
/// NFC_TAG), one line per frame at its link time relative to `originMs` (an epoch's RMC
/// and GGA share their epoch's time; the MCU stamps GGA 3 ms later).
///
/// The frame sequence restarts at every HELLO (the MCU rebooted); manual session ends
/// are not link traffic and are left out. The frames come from `MCUTrafficGenerator`, as
/// the simulator's and the soak traffic's do.
public struct ScenarioCapture {
    public let originMs: Int64
    public private(set) var frames = 0
    /// The capture text so far, UTF-8.
    public private(set) var bytes: [UInt8] = []
    private var generator = MCUTrafficGenerator()
    private var wire: [UInt8] = []
    private var scratch = [UInt8](repeating: 0, count: 640)

    /// A capture with its header and one comment line.
    public init(originMs: Int64, comment: String) {
        self.originMs = originMs
        wire.reserveCapacity(300)
        bytes.append(contentsOf: (CaptureFormat.header + "\n# " + comment + "\n").utf8)
    }

    /// The capture of `events`, as UTF-8 bytes ready to write.
    public static func bytes(_ events: [ScenarioEvent], originMs: Int64, comment: String) -> [UInt8] {
        var capture = ScenarioCapture(originMs: originMs, comment: comment)
        capture.bytes.reserveCapacity(events.count * 110)
        for event in events { capture.append(event) }
        return capture.bytes
    }

    /// The capture of `events` as text.
    public static func text(_ events: [ScenarioEvent], originMs: Int64, comment: String) -> String {
        String(decoding: bytes(events, originMs: originMs, comment: comment), as: UTF8.self)
    }

    /// Appends the line(s) of one event.
    public mutating func append(_ event: ScenarioEvent) {
        let time = event.timeMs
        let uptime = event.mcuUptimeMs
        switch event.signal {
        case let .hello(ignitionSense):
            generator.restart()
            // This family's MCU has no NFC writer, and ignition sense only where the scenario says.
            generator.identity.capabilities = ignitionSense ? [.nfcReader, .bleScanner, .gnss, .ignitionSense] : [.nfcReader, .bleScanner, .gnss]
            line(generator.hello(uptimeMs: uptime), at: time)
        case let .heartbeat(ignitionOn, supply):
            line(MCUTrafficGenerator.heartbeat(uptimeMs: uptime, supplyMillivolts: supply, ignitionOn: ignitionOn), at: time)
        case let .power(ignitionOn, supply):
            line(MCUTrafficGenerator.power(uptimeMs: uptime, ignitionOn: ignitionOn, supplyMillivolts: supply), at: time)
        case let .epoch(epoch):
            let sentences = ScenarioNMEA.sentences(epoch)
            line(MCUTrafficGenerator.nmea(uptimeMs: uptime, sentences.rmc), at: time)
            line(MCUTrafficGenerator.nmea(uptimeMs: uptime &+ 3, sentences.gga), at: time)
        case let .advertisement(advert):
            line(.bleAdvertisement(BLEAdvertisementReport(
                mcuTimeMs: uptime, address: advert.address, addressType: advert.addressType,
                advertisingType: advert.advertisingType, rssiDBm: advert.rssiDBm, data: advert.data[...])), at: time)
        case let .tag(uid, ndef):
            line(MCUTrafficGenerator.tag(uptimeMs: uptime, uid: uid[...], ndef: ndef[...]), at: time)
        case .endSession:
            break
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// `<t_ms> rx <hex>` and a line feed, composed in `scratch` through buffer pointers and
    /// appended in one copy (this runs for every frame of a month in debug builds).
    private mutating func line(_ message: LinkMessage, at timeMs: Int64) {
        wire.removeAll(keepingCapacity: true)
        generator.frame(message, into: &wire)
        precondition(timeMs >= originMs, "an event before the capture's origin")
        if scratch.count < 32 + wire.count * 2 { scratch = [UInt8](repeating: 0, count: 32 + wire.count * 2) }
        var value = UInt64(timeMs - originMs)
        let length = Self.hexDigits.withUnsafeBufferPointer { hex in
            wire.withUnsafeBufferPointer { frame in
                scratch.withUnsafeMutableBufferPointer { out in
                    var digits = 0
                    repeat {
                        out[digits] = UInt8(ascii: "0") + UInt8(value % 10)
                        value /= 10
                        digits += 1
                    } while value > 0
                    var low = 0
                    var high = digits - 1
                    while low < high {
                        out.swapAt(low, high)
                        low += 1
                        high -= 1
                    }
                    var at = digits
                    out[at] = UInt8(ascii: " ")
                    out[at + 1] = UInt8(ascii: "r")
                    out[at + 2] = UInt8(ascii: "x")
                    out[at + 3] = UInt8(ascii: " ")
                    at += 4
                    for index in 0..<frame.count {
                        let byte = frame[index]
                        out[at] = hex[Int(byte >> 4)]
                        out[at + 1] = hex[Int(byte & 0x0F)]
                        at += 2
                    }
                    out[at] = UInt8(ascii: "\n")
                    return at + 1
                }
            }
        }
        scratch.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[0..<length])) }
        frames += 1
    }
}
