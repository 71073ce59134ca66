import FairFuelEdges

/// The dongle's side of the USB pull: pairing, then pages on request. A value type driven
/// by decoded messages and a monotonic clock; the caller writes the replies to its port.
///
/// The pairing throttle outlives connections (a new HELLO_REQ does not reset it), so that
/// unplugging and replugging does not buy a stranger more tries.
public struct PullServerSession: Sendable {
    public enum Event: Sendable, Equatable {
        case connected
        case paired
        case pairingFailed(failures: Int, lockedForMs: Int64)
        case served(PullRecordKind, records: Int)
        case refused(PullErrorCode)
    }

    public private(set) var throttle: PairingThrottle
    public private(set) var isAuthenticated = false
    private var serverNonce: [UInt8]?
    private let makeNonce: @Sendable () -> [UInt8]

    public init(throttle: PairingThrottle = PairingThrottle(), makeNonce: @escaping @Sendable () -> [UInt8] = { PullNonce.random(count: PullMessage.nonceLength) }) {
        self.throttle = throttle
        self.makeNonce = makeNonce
    }

    /// The replies to `message` received at `nowMs`, and what happened (for the log).
    public mutating func handle<Source: PullDataSource>(
        _ message: PullMessage, nowMs: Int64, source: inout Source, reply: (PullMessage) -> Void
    ) -> Event? {
        switch message {
        case let .helloRequest(major, _):
            isAuthenticated = false
            serverNonce = nil
            guard major == PullProtocolVersion.major else {
                reply(.error(requestID: 0, code: .unsupportedVersion, retryAfterMs: 0))
                return .refused(.unsupportedVersion)
            }
            let nonce = makeNonce()
            serverNonce = nonce
            reply(.hello(major: PullProtocolVersion.major, minor: PullProtocolVersion.minor, serverNonce: nonce))
            return .connected
        case let .auth(clientNonce, mac):
            let wait = throttle.waitMs(now: nowMs)
            if wait > 0 {
                reply(.error(requestID: 0, code: .locked, retryAfterMs: UInt32(clamping: wait)))
                return .refused(.locked)
            }
            // One try per nonce: a replayed or repeated AUTH needs a new HELLO_REQ.
            guard let nonce = serverNonce else {
                reply(.error(requestID: 0, code: .noNonce, retryAfterMs: 0))
                return .refused(.noNonce)
            }
            serverNonce = nil
            let secret = source.pairingSecret()
            let expected = secret.map { PairingHandshake.clientMAC(secret: $0, serverNonce: nonce, clientNonce: clientNonce) }
            guard let secret, let expected, HMACSHA256.constantTimeEqual(expected, mac) else {
                isAuthenticated = false
                throttle.recordFailure(now: nowMs)
                let lock = throttle.waitMs(now: nowMs)
                reply(.error(requestID: 0, code: lock > 0 ? .locked : .authFailed, retryAfterMs: UInt32(clamping: lock)))
                return .pairingFailed(failures: throttle.failures, lockedForMs: lock)
            }
            throttle.recordSuccess()
            isAuthenticated = true
            reply(.authOK(mac: PairingHandshake.serverMAC(secret: secret, serverNonce: nonce, clientNonce: clientNonce)))
            return .paired
        case let .get(request):
            guard isAuthenticated else {
                reply(.error(requestID: request.requestID, code: .notAuthenticated, retryAfterMs: 0))
                return .refused(.notAuthenticated)
            }
            let page: PullPage
            do {
                page = try source.page(for: request)
            } catch {
                reply(.error(requestID: request.requestID, code: .storeError, retryAfterMs: 0))
                return .refused(.storeError)
            }
            var offset = 0
            while offset < page.text.count {
                let end = min(page.text.count, offset + PullMessage.maximumDataBytes)
                reply(.data(requestID: request.requestID, offset: UInt32(offset), bytes: Array(page.text[offset..<end])))
                offset = end
            }
            reply(.end(PullPageEnd(
                requestID: request.requestID, totalBytes: UInt32(page.text.count), records: page.records,
                nextCursor: page.nextCursor, more: page.more)))
            return .served(request.kind, records: Int(page.records))
        case .bye:
            isAuthenticated = false
            serverNonce = nil
            return nil
        case .hello, .authOK, .data, .end, .error:
            // The reader only delivers laptop-to-dongle types.
            return nil
        }
    }

    /// Answers a frame the reader rejected (only once paired, or as a bad AUTH, so that
    /// a stranger's probing costs a try and learns nothing).
    public mutating func rejected(rawType: UInt8, nowMs: Int64, reply: (PullMessage) -> Void) -> Event? {
        if rawType == PullFrameType.auth.rawValue {
            serverNonce = nil
            throttle.recordFailure(now: nowMs)
            let lock = throttle.waitMs(now: nowMs)
            reply(.error(requestID: 0, code: lock > 0 ? .locked : .authFailed, retryAfterMs: UInt32(clamping: lock)))
            return .pairingFailed(failures: throttle.failures, lockedForMs: lock)
        }
        reply(.error(requestID: 0, code: .badRequest, retryAfterMs: 0))
        return .refused(.badRequest)
    }
}
