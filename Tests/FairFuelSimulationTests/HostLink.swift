import FairFuelCore
import FairFuelEdges
import FairFuelLink

/// The host's side of a virtual MCU in tests: opens the pseudo-terminal like the service
/// would, decodes what arrives and sends commands.
final class HostLink {
    struct Received {
        var frame: Frame
        var at: ContinuousClock.Instant
    }

    let connection: SerialConnection
    var decoder = FrameDecoder(sender: .mcu)
    var received: [Received] = []
    var rawBytes: [UInt8] = []
    var encoder = FrameEncoder(firstSeq: 0)
    private var ring = ByteRing(capacity: 1 << 16)
    private var scratch = [UInt8](repeating: 0, count: 4096)
    private var cursor = 0
    private(set) var disconnected = false

    init(path: String) throws {
        connection = try SerialOpener.openWithTermios(path: path, baud: 115_200)
    }

    /// Reads for up to `milliseconds`.
    func pump(milliseconds: Int) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(milliseconds))
        while clock.now < deadline && !disconnected { readOnce(timeoutMs: 10) }
    }

    func readOnce(timeoutMs: Int32) {
        do {
            _ = try connection.read(into: &ring, scratch: &scratch, timeoutMs: timeoutMs)
        } catch {
            disconnected = true
            return
        }
        let now = ContinuousClock.now
        var chunk: [UInt8] = []
        ring.drain { chunk.append(contentsOf: $0) }
        guard !chunk.isEmpty else { return }
        rawBytes += chunk
        decoder.decode(chunk) { output in
            if case .frame(let frame) = output {
                received.append(Received(frame: Frame(seq: frame.seq, message: frame.message), at: now))
            }
        }
    }

    /// Waits up to `timeoutMs` for a new frame matching `match` (frames seen before are skipped).
    @discardableResult
    func next(timeoutMs: Int = 3000, where match: (Frame) -> Bool) -> Received? {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(timeoutMs))
        while true {
            while cursor < received.count {
                let item = received[cursor]
                cursor += 1
                if match(item.frame) { return item }
            }
            if clock.now >= deadline || disconnected { return nil }
            readOnce(timeoutMs: 10)
        }
    }

    /// Sends `message` with the next host seq (or `seq`); returns the seq and when it left.
    @discardableResult
    func send(_ message: LinkMessage, seq: UInt16? = nil) throws -> (seq: UInt16, at: ContinuousClock.Instant) {
        let bytes: [UInt8]
        let used: UInt16
        if let seq {
            bytes = try FrameEncoder.encode(message, seq: seq)
            used = seq
        } else {
            used = encoder.nextSeq
            bytes = try encoder.encode(message)
        }
        try connection.write(bytes)
        return (used, ContinuousClock.now)
    }

    func sendRaw(_ bytes: [UInt8]) throws { try connection.write(bytes) }

    func close() { connection.close() }
}

extension LinkMessage {
    var ack: Ack? { if case .ack(let ack) = self { return ack } else { return nil } }
    var hello: Hello? { if case .hello(let hello) = self { return hello } else { return nil } }
    var heartbeat: Heartbeat? { if case .heartbeat(let beat) = self { return beat } else { return nil } }
    var nfcTag: NFCTagReport? { if case .nfcTag(let tag) = self { return tag } else { return nil } }
    var advertisement: BLEAdvertisementReport? { if case .bleAdvertisement(let ad) = self { return ad } else { return nil } }
    var nmeaSentence: String? { if case .nmea(let report) = self { return report.sentenceText } else { return nil } }
    var power: PowerReport? { if case .power(let power) = self { return power } else { return nil } }
}

extension Duration {
    var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
