import FairFuelCore
import FairFuelLink

/// The one generator of MCU-to-host traffic: the frames the MCU firmware sends (HELLO,
/// HEARTBEAT, POWER, LOG, NMEA, BLE_ADV, NFC_TAG), numbered by one encoder as the firmware
/// numbers them, and cut into the serial reads a host polling the port sees.
///
/// Its front-ends only plan what happens when: `VirtualMCUCore` (a scenario's drives, on a
/// pseudo-terminal), `SoakTraffic` (a family's days, streamed), `SyntheticLinkTraffic` (the
/// sample drive and the decoder benchmark) and the tests' `ScenarioCapture`.
public struct MCUTrafficGenerator {
    /// One serial read: its capture time and bytes, valid only during the call.
    public typealias ReadHandler = (_ timeMs: UInt64, _ bytes: ArraySlice<UInt8>) -> Void

    /// What was sent so far.
    public struct Statistics: Sendable, Equatable {
        public var frames = 0
        public var reads = 0
        public var bytes = 0
    }

    /// What HELLO says (the rev B profile unless a scenario says otherwise).
    public var identity: MCUSettings
    /// Largest bytes one serial read returns (a USB full-speed packet is 64).
    public let readChunkBytes: Int
    /// The host polls the port this often; a read holds what arrived in between.
    public let pollIntervalMs: Int64
    public private(set) var statistics = Statistics()
    private var encoder: FrameEncoder
    private var pending: [UInt8] = []
    private var pendingPollMs: Int64 = 0

    public init(identity: MCUSettings = MCUSettings(), readChunkBytes: Int = 64, pollIntervalMs: Int64 = 5, firstSeq: UInt16 = 0) {
        self.identity = identity
        self.readChunkBytes = readChunkBytes
        self.pollIntervalMs = pollIntervalMs
        encoder = FrameEncoder(firstSeq: firstSeq)
        pending.reserveCapacity(4_096)
    }

    /// Whether every byte sent has been handed out as a read.
    public var isDrained: Bool { pending.isEmpty }

    /// The MCU rebooted: its sequence numbers start again at 0.
    public mutating func restart() { encoder = FrameEncoder(firstSeq: 0) }

    /// The seq the next frame will carry.
    public var nextSeq: UInt16 { encoder.nextSeq }

    // MARK: messages

    public func hello(uptimeMs: UInt32) -> LinkMessage {
        .hello(Hello(
            firmwareMajor: identity.firmware.major, firmwareMinor: identity.firmware.minor,
            firmwarePatch: identity.firmware.patch, boardID: identity.boardID, capabilities: identity.capabilities,
            uptimeMs: uptimeMs, name: identity.name))
    }

    public static func heartbeat(uptimeMs: UInt32, dropped: Int = 0, supplyMillivolts: UInt16, ignitionOn: Bool) -> LinkMessage {
        .heartbeat(Heartbeat(
            uptimeMs: uptimeMs, mcuDropped: UInt16(clamping: dropped), supplyMillivolts: supplyMillivolts, flags: ignitionOn ? 1 : 0))
    }

    public static func power(uptimeMs: UInt32, ignitionOn: Bool, supplyMillivolts: UInt16) -> LinkMessage {
        .power(PowerReport(mcuTimeMs: uptimeMs, ignitionOn: ignitionOn, supplyMillivolts: supplyMillivolts))
    }

    /// One NMEA sentence as the MCU forwards it (without CR LF).
    public static func nmea(uptimeMs: UInt32, _ sentence: String) -> LinkMessage {
        .nmea(NMEAReport(mcuTimeMs: uptimeMs, sentence: sentence))
    }

    /// A tag in the reader's field; an NTAG (ISO 14443-A, ATQA 0x0044, SAK 0) unless said otherwise.
    public static func tag(
        uptimeMs: UInt32, technology: NFCTechnology = .iso14443A, atqa: UInt16 = 0x0044, sak: UInt8 = 0x00,
        uid: ArraySlice<UInt8>, ndef: ArraySlice<UInt8> = []
    ) -> LinkMessage {
        .nfcTag(NFCTagReport(mcuTimeMs: uptimeMs, technology: technology, atqa: atqa, sak: sak, uid: uid, ndef: ndef))
    }

    // MARK: frames

    /// One framed message, for a caller that queues frames itself (the virtual MCU corrupts some
    /// on the way); nil when the message does not fit a frame.
    public mutating func frame(_ message: LinkMessage) -> [UInt8]? {
        guard let bytes = try? encoder.encode(message) else { return nil }
        statistics.frames += 1
        return bytes
    }

    /// Appends one framed message to `wire`; a message that does not fit a frame is a bug in its front-end.
    public mutating func frame(_ message: LinkMessage, into wire: inout [UInt8]) {
        do { try encoder.encode(message, into: &wire) } catch { preconditionFailure("an MCU message does not fit a frame: \(error)") }
        statistics.frames += 1
    }

    // MARK: serial reads

    /// Sends `message` at capture time `timeMs`; reads of earlier polls go to `read` first.
    public mutating func send(_ message: LinkMessage, at timeMs: Int64, _ read: ReadHandler) {
        moveToPoll(of: timeMs, read)
        do { try encoder.encode(message, into: &pending) } catch { preconditionFailure("an MCU message does not fit a frame: \(error)") }
        statistics.frames += 1
    }

    /// Sends bytes as they are (a frame already encoded, maybe corrupted, or garbage) at `timeMs`.
    public mutating func send<Bytes: Collection>(bytes: Bytes, at timeMs: Int64, _ read: ReadHandler) where Bytes.Element == UInt8 {
        moveToPoll(of: timeMs, read)
        pending.append(contentsOf: bytes)
    }

    /// Hands out what is pending, in reads of at most `readChunkBytes`.
    public mutating func flush(_ read: ReadHandler) {
        var start = 0
        while start < pending.count {
            let end = min(pending.count, start + readChunkBytes)
            read(UInt64(pendingPollMs), pending[start..<end])
            statistics.reads += 1
            statistics.bytes += end - start
            start = end
        }
        pending.removeAll(keepingCapacity: true)
    }

    private mutating func moveToPoll(of timeMs: Int64, _ read: ReadHandler) {
        let poll = (timeMs / pollIntervalMs) * pollIntervalMs
        guard poll != pendingPollMs else { return }
        flush(read)
        pendingPollMs = poll
    }
}
