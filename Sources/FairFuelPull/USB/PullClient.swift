import FairFuelCore
import FairFuelEdges

/// The laptop's end of the USB pull: pairs with the dongle, then fetches pages, asking again
/// (with a new request id) when a page arrives incomplete or not at all.
public final class PullClient {
    public let portPath: String
    private let connection: SerialConnection
    private var reader = PullFrameReader(sender: .dongle)
    private var writer = PullFrameWriter()
    private var ring = ByteRing(capacity: 8_192)
    private var scratch = [UInt8](repeating: 0, count: 2_048)
    private var chunk: [UInt8] = []
    private var inbox: [PullMessage] = []
    private var nextRequestID: UInt16 = 1
    private let clock = MonotonicClock()
    /// How long to wait for an answer before asking again, and how many times to ask.
    public var answerTimeoutMs: Int64 = 2_000
    public var attempts = 4
    /// The most text one page may bring (`PullLimits.maximumPageBytes`).
    public var maximumPageBytes = PullLimits.standard.maximumPageBytes
    /// Frames the dongle sent that were lost to line noise.
    public var noiseCount: Int { reader.noiseCount }

    public init(portPath: String, baud: Int = 115_200) throws(PullClientError) {
        self.portPath = portPath
        do {
            connection = try SerialOpener.open(path: portPath, baud: baud)
        } catch {
            throw .linkLost("cannot open \(portPath): \(error)")
        }
    }

    deinit { connection.close() }

    /// Pairs: HELLO_REQ, HELLO with the dongle's nonce, AUTH with ours, and the dongle's proof.
    public func pair(secret: PairingSecret) throws(PullClientError) {
        var serverNonce: [UInt8]?
        for _ in 0..<attempts where serverNonce == nil {
            inbox.removeAll()
            try send(.helloRequest(major: PullProtocolVersion.major, minor: PullProtocolVersion.minor))
            try receive { (message: PullMessage) throws(PullClientError) -> Bool in
                switch message {
                case let .hello(major, _, nonce):
                    guard major == PullProtocolVersion.major else { throw .unsupportedVersion }
                    serverNonce = nonce
                    return true
                case .error(_, .unsupportedVersion, _): throw .unsupportedVersion
                default: return false
                }
            }
        }
        guard let serverNonce else { throw .noAnswer(port: portPath) }
        let clientNonce = PullNonce.random(count: PullMessage.nonceLength)
        try send(.auth(clientNonce: clientNonce, mac: PairingHandshake.clientMAC(secret: secret, serverNonce: serverNonce, clientNonce: clientNonce)))
        var proof: [UInt8]?
        try receive { (message: PullMessage) throws(PullClientError) -> Bool in
            switch message {
            case let .authOK(mac): proof = mac; return true
            case .error(_, .authFailed, _), .error(_, .noNonce, _): throw .wrongSecret
            case let .error(_, .locked, retry): throw .locked(retryAfterMs: retry)
            case let .error(_, code, _): throw .dongleError(code)
            default: return false
            }
        }
        guard let proof else { throw .noAnswer(port: portPath) }
        let expected = PairingHandshake.serverMAC(secret: secret, serverNonce: serverNonce, clientNonce: clientNonce)
        guard HMACSHA256.constantTimeEqual(proof, expected) else { throw .dongleNotAuthentic }
    }

    /// One complete page for `request` (its request id is replaced by a fresh one per try).
    public func page(_ request: PullRequest) throws(PullClientError) -> PullPage {
        for _ in 0..<attempts {
            var ask = request
            ask.requestID = nextRequestID
            nextRequestID = nextRequestID == UInt16.max ? 1 : nextRequestID + 1
            try send(.get(ask))
            var text: [UInt8] = []
            var gap = false
            var end: PullPageEnd?
            try receive { (message: PullMessage) throws(PullClientError) -> Bool in
                switch message {
                case let .data(id, offset, bytes) where id == ask.requestID:
                    if Int(offset) == text.count { text += bytes } else { gap = true }
                    if text.count > maximumPageBytes {
                        throw .beyondLimits(kind: request.kind.name, why: "sent a page of more than \(maximumPageBytes) bytes")
                    }
                    return false
                case let .end(e) where e.requestID == ask.requestID:
                    end = e
                    return true
                case let .error(id, code, _) where id == ask.requestID:
                    throw .dongleError(code)
                case .error(_, .notAuthenticated, _):
                    throw .dongleError(.notAuthenticated)
                default:
                    return false
                }
            }
            if let end, !gap, Int(end.totalBytes) == text.count {
                return PullPage(text: text, records: end.records, nextCursor: end.nextCursor, more: end.more)
            }
            // Incomplete (noise ate a frame) or no END in time: ask again.
        }
        throw .linkLost("no complete \(request.kind.name) page after \(attempts) tries")
    }

    /// Tells the dongle the pull is over (best effort).
    public func bye() {
        try? send(.bye)
    }

    private func send(_ message: PullMessage) throws(PullClientError) {
        do { try connection.write(writer.encode(message), timeoutMs: 2_000) } catch { throw .linkLost("\(error)") }
    }

    /// Delivers incoming messages to `accept` until it returns true, or the answer timeout passes.
    private func receive(_ accept: (PullMessage) throws(PullClientError) -> Bool) throws(PullClientError) {
        let deadline = clock.now.value + answerTimeoutMs
        while true {
            while !inbox.isEmpty {
                let message = inbox.removeFirst()
                if try accept(message) { return }
            }
            let left = deadline - clock.now.value
            if left <= 0 { return }
            let result: SerialConnection.ReadResult
            do {
                result = try connection.read(into: &ring, scratch: &scratch, timeoutMs: Int32(min(left, 500)))
            } catch {
                throw .linkLost("\(error)")
            }
            guard case .bytes = result else { continue }
            chunk.removeAll(keepingCapacity: true)
            ring.drain { chunk.append(contentsOf: $0) }
            reader.decode(chunk[...]) { output in
                if case let .message(message) = output { inbox.append(message) }
            }
        }
    }
}
