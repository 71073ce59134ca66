import FairFuelCore
import FairFuelLink

/// Random legal messages of every type, of every legal size, for property tests.
public enum RandomMessages {
    public static func printableASCII(_ count: Int, using g: inout SeededGenerator) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0x20...0x7E, using: &g) }
    }

    /// A legal MCU-to-host message of a random type and size.
    public static func fromMCU(using g: inout SeededGenerator) -> LinkMessage {
        switch Int.random(in: 0..<9, using: &g) {
        case 0:
            var hello = Hello(
                firmwareMajor: .random(in: 0...255, using: &g), firmwareMinor: .random(in: 0...255, using: &g),
                firmwarePatch: .random(in: 0...255, using: &g), boardID: .random(in: 0...0xFFFF, using: &g),
                capabilities: MCUCapabilities(rawValue: .random(in: 0...0xFFFF, using: &g)),
                uptimeMs: .random(in: 0...UInt32.max, using: &g), name: "")
            hello.nameBytes = g.bytes(Int.random(in: 0...32, using: &g))[...]
            return .hello(hello)
        case 1:
            return .heartbeat(Heartbeat(
                uptimeMs: .random(in: 0...UInt32.max, using: &g), mcuDropped: .random(in: 0...0xFFFF, using: &g),
                supplyMillivolts: .random(in: 0...0xFFFF, using: &g), flags: .random(in: 0...255, using: &g)))
        case 2:
            var sentence = [UInt8(ascii: Bool.random(using: &g) ? "$" : "!")]
            sentence += printableASCII(Int.random(in: 0...239, using: &g), using: &g)
            return .nmea(NMEAReport(mcuTimeMs: .random(in: 0...UInt32.max, using: &g), sentence: sentence[...]))
        case 3:
            let type = BLEAdvertisingType(rawValue: .random(in: 0...5, using: &g))!
            let length = Int.random(in: 0...(type.isLegacy ? 31 : 237), using: &g)
            return .bleAdvertisement(BLEAdvertisementReport(
                mcuTimeMs: .random(in: 0...UInt32.max, using: &g),
                address: BLEAddress(rawValue: .random(in: 0...UInt64.max, using: &g)),
                addressType: BLEAddressType(rawValue: .random(in: 0...1, using: &g))!,
                advertisingType: type, rssiDBm: .random(in: -128...127, using: &g), data: g.bytes(length)[...]))
        case 4:
            let tech = NFCTechnology(rawValue: .random(in: 0...3, using: &g))!
            let uidLength = [4, 7, 10, 4, 8, 8].filter { tech.acceptsUIDLength($0) }.randomElement(using: &g)!
            return .nfcTag(NFCTagReport(
                mcuTimeMs: .random(in: 0...UInt32.max, using: &g), technology: tech,
                atqa: .random(in: 0...0xFFFF, using: &g), sak: .random(in: 0...255, using: &g),
                uid: g.bytes(uidLength)[...], ndef: g.bytes(Int.random(in: 0...(241 - uidLength), using: &g))[...]))
        case 5:
            return .power(PowerReport(
                mcuTimeMs: .random(in: 0...UInt32.max, using: &g), ignitionOn: .random(using: &g),
                supplyMillivolts: .random(in: 0...0xFFFF, using: &g)))
        case 6:
            var log = MCULog(level: MCULog.Level(rawValue: .random(in: 0...3, using: &g))!, text: "")
            log.textBytes = g.bytes(Int.random(in: 0...249, using: &g))[...]
            return .log(log)
        case 7:
            return .ack(Ack(
                ackedSeq: .random(in: 0...0xFFFF, using: &g), status: Ack.Status(rawValue: .random(in: 0...5, using: &g))!))
        default:
            // Types unknown to this receiver are delivered as unknown, with any payload.
            let type = UInt8.random(in: 0x03...0x0F, using: &g)
            return .unknown(rawType: type, payload: g.bytes(Int.random(in: 0...250, using: &g))[...])
        }
    }
}

/// Decodes `bytes` cut by `chunking` and returns every output, in order.
public func decodeAll(_ bytes: [UInt8], sender: LinkSide = .mcu, chunking: Chunking = .whole)
    -> (outputs: [DecoderOutput], counters: LinkCounters)
{
    var decoder = FrameDecoder(sender: sender)
    var outputs: [DecoderOutput] = []
    for chunk in chunking.chunks(of: bytes) {
        decoder.decode(chunk) { outputs.append($0) }
    }
    return (outputs, decoder.counters)
}

/// The frames among `outputs`.
public func frames(_ outputs: [DecoderOutput]) -> [Frame] {
    outputs.compactMap { if case let .frame(frame) = $0 { frame } else { nil } }
}

