import FairFuelPull
import Testing

/// The dongle's session: nothing before pairing, mutual proofs, one try per nonce, throttled failures.
@Suite struct PullServerSessionTests {
    struct FakeSource: PullDataSource {
        var secret: PairingSecret?
        var pagesAsked = 0
        mutating func pairingSecret() -> PairingSecret? { secret }
        mutating func page(for request: PullRequest) throws -> PullPage {
            pagesAsked += 1
            // 500 bytes: three DATA frames (240 + 240 + 20).
            return PullPage(text: Array(repeating: 0x61, count: 499) + [0x0A], records: 1, nextCursor: request.cursor + 1, more: false)
        }
    }

    static let secret = PairingSecret(parsing: "00112233445566778899aabbccddeeff")!
    static let serverNonce = Array(repeating: UInt8(0x5A), count: 16)

    static func session() -> PullServerSession {
        PullServerSession(throttle: PairingThrottle(freeTries: 3, firstDelayMs: 1_000, maximumDelayMs: 8_000), makeNonce: { serverNonce })
    }

    static func send(_ message: PullMessage, to session: inout PullServerSession, source: inout FakeSource, at now: Int64 = 0) -> [PullMessage] {
        var replies: [PullMessage] = []
        _ = session.handle(message, nowMs: now, source: &source) { replies.append($0) }
        return replies
    }

    @Test func aPairedLaptopGetsPagesAndTheDongleProvesItself() throws {
        var session = Self.session()
        var source = FakeSource(secret: Self.secret)
        #expect(Self.send(.helloRequest(major: 1, minor: 0), to: &session, source: &source)
            == [.hello(major: 1, minor: 0, serverNonce: Self.serverNonce)])
        let clientNonce = Array(repeating: UInt8(0xC3), count: 16)
        let mac = PairingHandshake.clientMAC(secret: Self.secret, serverNonce: Self.serverNonce, clientNonce: clientNonce)
        let replies = Self.send(.auth(clientNonce: clientNonce, mac: mac), to: &session, source: &source)
        let expectedProof = PairingHandshake.serverMAC(secret: Self.secret, serverNonce: Self.serverNonce, clientNonce: clientNonce)
        #expect(replies == [.authOK(mac: expectedProof)])
        #expect(expectedProof != mac, "the two proofs carry different labels")

        let page = Self.send(.get(PullRequest(requestID: 9, kind: .trips, cursor: 4)), to: &session, source: &source)
        #expect(page.count == 4)
        #expect(page.last == .end(PullPageEnd(requestID: 9, totalBytes: 500, records: 1, nextCursor: 5, more: false)))
        if case let .data(id, offset, bytes) = page[2] {
            #expect(id == 9 && offset == 480 && bytes.count == 20)
        } else {
            Issue.record("the third reply is not DATA: \(page[2])")
        }
    }

    @Test func nothingIsServedBeforePairing() {
        var session = Self.session()
        var source = FakeSource(secret: Self.secret)
        _ = Self.send(.helloRequest(major: 1, minor: 0), to: &session, source: &source)
        let replies = Self.send(.get(PullRequest(requestID: 1, kind: .trips)), to: &session, source: &source)
        #expect(replies == [.error(requestID: 1, code: .notAuthenticated, retryAfterMs: 0)])
        #expect(source.pagesAsked == 0)
    }

    @Test func wrongSecretsAreThrottledWithAGrowingDelay() {
        var session = Self.session()
        var source = FakeSource(secret: Self.secret)
        let wrong = PairingSecret(parsing: "ffffffffffffffffffffffffffffffff")!
        let nonce = Array(repeating: UInt8(1), count: 16)
        func tryWrong(at now: Int64) -> [PullMessage] {
            _ = Self.send(.helloRequest(major: 1, minor: 0), to: &session, source: &source, at: now)
            let mac = PairingHandshake.clientMAC(secret: wrong, serverNonce: Self.serverNonce, clientNonce: nonce)
            return Self.send(.auth(clientNonce: nonce, mac: mac), to: &session, source: &source, at: now)
        }
        #expect(tryWrong(at: 0) == [.error(requestID: 0, code: .authFailed, retryAfterMs: 0)])
        #expect(tryWrong(at: 10) == [.error(requestID: 0, code: .authFailed, retryAfterMs: 0)])
        #expect(tryWrong(at: 20) == [.error(requestID: 0, code: .locked, retryAfterMs: 1_000)])
        // While locked even the right secret is not heard.
        _ = Self.send(.helloRequest(major: 1, minor: 0), to: &session, source: &source, at: 500)
        let right = PairingHandshake.clientMAC(secret: Self.secret, serverNonce: Self.serverNonce, clientNonce: nonce)
        #expect(Self.send(.auth(clientNonce: nonce, mac: right), to: &session, source: &source, at: 500)
            == [.error(requestID: 0, code: .locked, retryAfterMs: 520)])
        #expect(tryWrong(at: 1_100) == [.error(requestID: 0, code: .locked, retryAfterMs: 2_000)])
        #expect(session.throttle.failures == 4)
        // After the wait, the right secret pairs and the count starts over.
        _ = Self.send(.helloRequest(major: 1, minor: 0), to: &session, source: &source, at: 3_200)
        #expect(Self.send(.auth(clientNonce: nonce, mac: right), to: &session, source: &source, at: 3_200).first?.type == .authOK)
        #expect(session.throttle.failures == 0)
    }

    @Test func aNonceServesOneTryOnly() {
        var session = Self.session()
        var source = FakeSource(secret: Self.secret)
        let nonce = Array(repeating: UInt8(2), count: 16)
        let mac = PairingHandshake.clientMAC(secret: Self.secret, serverNonce: Self.serverNonce, clientNonce: nonce)
        #expect(Self.send(.auth(clientNonce: nonce, mac: mac), to: &session, source: &source)
            == [.error(requestID: 0, code: .noNonce, retryAfterMs: 0)])
        _ = Self.send(.helloRequest(major: 1, minor: 0), to: &session, source: &source)
        #expect(Self.send(.auth(clientNonce: nonce, mac: mac), to: &session, source: &source).first?.type == .authOK)
        // Replaying the same AUTH (as an eavesdropper would) meets a spent nonce.
        #expect(Self.send(.auth(clientNonce: nonce, mac: mac), to: &session, source: &source)
            == [.error(requestID: 0, code: .noNonce, retryAfterMs: 0)])
    }

    @Test func aDongleWithoutASecretAnswersLikeAWrongOne() {
        var session = Self.session()
        var source = FakeSource(secret: nil)
        _ = Self.send(.helloRequest(major: 1, minor: 0), to: &session, source: &source)
        let nonce = Array(repeating: UInt8(3), count: 16)
        let mac = PairingHandshake.clientMAC(secret: Self.secret, serverNonce: Self.serverNonce, clientNonce: nonce)
        #expect(Self.send(.auth(clientNonce: nonce, mac: mac), to: &session, source: &source)
            == [.error(requestID: 0, code: .authFailed, retryAfterMs: 0)])
    }

    @Test func anotherMajorVersionIsRefused() {
        var session = Self.session()
        var source = FakeSource(secret: Self.secret)
        #expect(Self.send(.helloRequest(major: 2, minor: 0), to: &session, source: &source)
            == [.error(requestID: 0, code: .unsupportedVersion, retryAfterMs: 0)])
    }
}
