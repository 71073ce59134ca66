import FairFuelCore
import FairFuelEdges
import FairFuelStore

/// The dongle's USB pull server on the gadget port: one fd, driven by the caller's poll loop
/// (`fileDescriptor` + `handleReadable`) or standalone by `serve(until:)`.
///
/// It reads the store only (a WAL reader beside the service) and keeps its pairing throttle
/// across connections and port reopenings.
public final class USBPullServer {
    public let portPath: String
    public let baud: Int
    private var source: StorePullSource
    private var session = PullServerSession()
    private var reader = PullFrameReader(sender: .laptop)
    private var writer = PullFrameWriter()
    private var connection: SerialConnection?
    private var ring = ByteRing(capacity: 4_096)
    private var scratch = [UInt8](repeating: 0, count: 1_024)
    private var chunk: [UInt8] = []
    private let clock = MonotonicClock()
    private let log: (String) -> Void
    /// Line noise seen since start (COBS, CRC, oversize, version), over every connection.
    public private(set) var noiseCount = 0
    public private(set) var rejectedCount = 0
    public private(set) var pagesServed = 0
    /// One line per kind of garbage, then a count a minute (a babbling cable must not fill the journal).
    private var garbageLog = RateLimitedLog<String>()
    /// A pause after each page, in milliseconds: only for tests that must unplug mid-stream.
    public var pageDelayMs: Int32 = 0

    public init(portPath: String, baud: Int = 115_200, store: TripStore, log: @escaping (String) -> Void) {
        self.portPath = portPath
        self.baud = baud
        self.source = StorePullSource(store: store)
        self.log = log
    }

    /// The open port's descriptor, or nil while it is closed.
    public var fileDescriptor: Int32? { connection?.fileDescriptor }

    /// Opens the gadget port (termios for ptys, libserialport otherwise).
    public func open() throws(SerialPortError) {
        guard connection == nil else { return }
        connection = try SerialOpener.open(path: portPath, baud: baud, log: log)
        reader = PullFrameReader(sender: .laptop)
        writer = PullFrameWriter()
    }

    public func close() {
        connection?.close()
        connection = nil
    }

    /// Reads what is waiting (up to `timeoutMs`) and answers every complete request.
    /// Throws `.disconnected` when the laptop side went away; the port is then closed.
    public func handleReadable(timeoutMs: Int32 = 0) throws(SerialPortError) {
        guard let connection else { return }
        let result: SerialConnection.ReadResult
        do {
            result = try connection.read(into: &ring, scratch: &scratch, timeoutMs: timeoutMs)
        } catch {
            close()
            throw error
        }
        guard case .bytes = result else { return }
        chunk.removeAll(keepingCapacity: true)
        ring.drain { chunk.append(contentsOf: $0) }
        var replies: [PullMessage] = []
        let now = clock.now.value
        reader.decode(chunk[...]) { output in
            switch output {
            case let .message(message):
                if let event = session.handle(message, nowMs: now, source: &source, reply: { replies.append($0) }) {
                    note(event)
                }
            case let .rejected(rawType, reason):
                rejectedCount += 1
                if case let .line(before) = garbageLog.admit("rejected", nowMs: now) {
                    log("usb pull: rejected a frame of type 0x\(String(rawType, radix: 16)) (\(reason)), \(rejectedCount) so far"
                        + (before > 0 ? " (\(before) more in the minute before)" : "; more within a minute are only counted"))
                }
                if let event = session.rejected(rawType: rawType, nowMs: now, reply: { replies.append($0) }) { note(event) }
            case let .noise(counter):
                noiseCount += 1
                if case let .line(before) = garbageLog.admit("noise", nowMs: now) {
                    log("usb pull: line noise (\(counter)), \(noiseCount) so far"
                        + (before > 0 ? " (\(before) more in the minute before)" : "; more within a minute are only counted"))
                }
            }
        }
        garbageLog.drainSummaries(nowMs: now) { kind, count in
            log("usb pull: \(count) more \(kind == "noise" ? "line noise" : "rejected frame")(s) in the last minute")
        }
        var wire: [UInt8] = []
        for reply in replies { wire += writer.encode(reply) }
        if !wire.isEmpty {
            do { try connection.write(wire, timeoutMs: 5_000) } catch {
                close()
                throw error
            }
            if pageDelayMs > 0 { Pause.milliseconds(pageDelayMs) }
        }
    }

    private func note(_ event: PullServerSession.Event) {
        switch event {
        case .connected: log("usb pull: a laptop said hello")
        case .paired: log("usb pull: paired")
        case let .pairingFailed(failures, lock):
            log("usb pull: pairing failed (\(failures) in a row)" + (lock > 0 ? ", locked for \(lock) ms" : ""))
        case let .served(kind, records):
            pagesServed += 1
            if kind != .track { log("usb pull: served \(records) \(kind.name) record(s)") }
        case let .refused(code): log("usb pull: refused (\(code))")
        }
    }

    /// Serves until `shouldStop` says so: opens the port (retrying every `retryMs` while it is
    /// absent, as when the gadget is down or the cable is out), serves, reopens after a disconnect.
    public func serve(retryMs: Int32 = 500, shouldStop: () -> Bool) {
        var announcedWait = false
        while !shouldStop() {
            if connection == nil {
                do {
                    try open()
                    announcedWait = false
                    log("usb pull: serving on \(portPath)")
                } catch {
                    if !announcedWait { log("usb pull: waiting for \(portPath): \(error)") }
                    announcedWait = true
                    Pause.milliseconds(retryMs)
                    continue
                }
            }
            do {
                try handleReadable(timeoutMs: 200)
            } catch {
                log("usb pull: \(portPath) closed (\(error)); line noise so far: \(noiseCount)")
                Pause.milliseconds(retryMs)
            }
        }
        close()
        log("usb pull: stopped; pages served \(pagesServed), line noise \(noiseCount), rejected frames \(rejectedCount)")
    }
}
