import FairFuelCore
import FairFuelLink

/// Records a live link into a `.ffcap` capture: every read becomes one `rx` line stamped
/// with the host's monotonic milliseconds since the start.
public enum CaptureRecorder {
    public struct Options: Sendable {
        /// Stop after this many seconds; nil: until asked to stop.
        public var seconds: Double?
        /// Send HELLO_REQ at the start (recorded as a `tx` line).
        public var sendHelloRequest = false
        /// A comment line after the header (where the capture came from).
        public var comment: String?

        public init(seconds: Double? = nil, sendHelloRequest: Bool = false, comment: String? = nil) {
            self.seconds = seconds
            self.sendHelloRequest = sendHelloRequest
            self.comment = comment
        }
    }

    public enum EndReason: Sendable, Equatable {
        case stopped
        case timeLimit
        /// The device went away (an unplugged MCU).
        case disconnected
    }

    public struct Summary: Sendable, Equatable {
        public var reason: EndReason
        public var reads = 0
        public var bytes = 0
        public var durationMs: UInt64 = 0
    }

    /// Records from `connection` into `writer` until `shouldStop` says so (polled at least
    /// every 100 ms), the time limit, or a disconnect; flushes and leaves closing to the caller.
    public static func record(
        connection: SerialConnection, to writer: CaptureFileWriter, options: Options,
        shouldStop: () -> Bool
    ) throws(CaptureRecorderError) -> Summary {
        let clock = ContinuousClock()
        let start = clock.now
        func elapsedMs() -> UInt64 {
            let elapsed = clock.now - start
            return UInt64(max(0, elapsed.components.seconds)) * 1000 + UInt64(max(0, elapsed.components.attoseconds)) / 1_000_000_000_000_000
        }
        do {
            try writer.write(CaptureFormat.header + "\n")
            if let comment = options.comment { try writer.write("# " + comment + "\n") }
        } catch {
            throw .file(error)
        }
        if options.sendHelloRequest {
            let bytes = (try? FrameEncoder.encode(.helloRequest(HelloRequest(hostMajor: 1, hostMinor: 0)), seq: 0)) ?? []
            do { try connection.write(bytes) } catch { throw .port(error) }
            do { try writer.write(CaptureFormat.line(timeMs: elapsedMs(), direction: .tx, bytes: bytes) + "\n") } catch {
                throw .file(error)
            }
        }
        var ring = ByteRing(capacity: 1 << 16)
        var scratch = [UInt8](repeating: 0, count: 4096)
        var summary = Summary(reason: .stopped)
        var lastFlushMs: UInt64 = 0
        let limitMs = options.seconds.map { UInt64(max(0, $0) * 1000) }
        while true {
            if shouldStop() {
                summary.reason = .stopped
                break
            }
            let now = elapsedMs()
            if let limitMs, now >= limitMs {
                summary.reason = .timeLimit
                break
            }
            let timeout = Int32(min(100, limitMs.map { $0 - now } ?? 100))
            let result: SerialConnection.ReadResult
            do {
                result = try connection.read(into: &ring, scratch: &scratch, timeoutMs: max(timeout, 1))
            } catch .disconnected {
                summary.reason = .disconnected
                break
            } catch {
                try? writer.flush()
                throw .port(error)
            }
            guard case .bytes = result else { continue }
            let time = elapsedMs()
            var read: [UInt8] = []
            ring.drain { read.append(contentsOf: $0) }
            summary.bytes += read.count
            let line = CaptureFormat.line(timeMs: time, direction: .rx, bytes: read)
            summary.reads += 1
            do {
                try writer.write(line + "\n")
                if time - lastFlushMs >= 500 {
                    try writer.flush()
                    lastFlushMs = time
                }
            } catch {
                throw .file(error)
            }
        }
        summary.durationMs = elapsedMs()
        do { try writer.flush() } catch { throw .file(error) }
        return summary
    }
}
