import FairFuelCore
import FairFuelStore
import Hummingbird
import HummingbirdCore
import HummingbirdAuth
import HummingbirdBcrypt
import Logging
import NIOCore
import NIOPosix

/// The family's web app: the pages, `/api/v1` and what both share (the store, logins, sessions).
public struct WebApp: Sendable {
    let configuration: WebConfiguration
    let book: WebBook
    let throttle: LoginThrottle
    let sessions: MemoryPersistDriver<ContinuousClock>
    let activity = WebActivity()
    let enrolment = WebEnrolment()
    /// Photo uploads one at a time, and the photos waiting for their refuel's confirmation.
    let uploads = UploadGate()
    let pendingReceipts: PendingReceipts
    /// The hub's database when serving the family view of every car (`--hub-db`); nil: the car's store.
    let hub: HubFamily?
    /// HTTP/1.1, over TLS when the configuration has a certificate.
    let server: HTTPServerBuilder

    static let sessionCookie = "fairfuel_session"
    static let loginCookie = "fairfuel_login"
    /// Hashes of a random password, checked when the user does not exist: a wrong name takes as long as a wrong password.
    let unknownUserHash = UnknownUserHash()

    public init(configuration: WebConfiguration, hub: HubFamily? = nil) throws(WebError) {
        self.configuration = configuration
        self.hub = hub
        pendingReceipts = PendingReceipts(capacityBytes: max(16 << 20, configuration.uploadLimitBytes))
        // An idle or stalled connection is closed: it holds a slot and a little memory for nothing.
        let http = HTTPServerBuilder.http1(configuration: .init(idleTimeout: .seconds(Int64(configuration.connectionIdleTimeoutSeconds))))
        server = try configuration.tls?.serverBuilder(http) ?? http
        book = try WebBook(configuration: configuration)
        throttle = LoginThrottle(
            allowed: configuration.loginFailuresAllowed, longestWait: .seconds(configuration.loginLongestWaitSeconds))
        sessions = MemoryPersistDriver()
    }

    /// The router with every page and API route, behind the session middleware.
    public func router() -> Router<WebContext> {
        let router = Router(context: WebContext.self)
        router.add(middleware: ActivityMiddleware(activity: activity))
        router.add(middleware: SessionMiddleware(
            storage: sessions,
            configuration: SessionMiddlewareConfiguration(
                sessionCookieParameters: SessionCookieParameters(
                    name: Self.sessionCookie, path: "/", secure: configuration.cookiesAreSecure, sameSite: .strict),
                defaultSessionExpiration: .seconds(12 * 3600))))
        addPages(to: router)
        addAPI(to: router)
        addHubRoutes(to: router)
        return router
    }

    /// The application on the configured address; `onRunning` gets the bound port (the one chosen for port 0).
    /// What the app logs: warnings and worse (a request's details, and so its secrets, never).
    var logger: Logging.Logger {
        var logger = Logging.Logger(label: "fairfuel-web")
        logger.logLevel = .warning
        return logger
    }

    public func application(logger: Logging.Logger? = nil, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        Application(
            router: router(),
            server: server,
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port), serverName: "FairFuel"),
            services: [sessions],
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
            logger: logger ?? self.logger)
    }

    // MARK: What pages and API share

    /// A new random token (CSRF, the login form's), 32 bytes as hex.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte >> 4, radix: 16) + String(byte & 15, radix: 16)
        }.joined()
    }

    /// Checks a name and password: the attempt is counted first (the name's wait, and the address's
    /// unless it is the local proxy), then bcrypt off the event loops; a success starts a session.
    func logIn(name: String, password: String, context: WebContext) async throws(WebError) -> WebSession {
        guard name.utf8.count <= 256, password.utf8.count <= 1024 else { throw .badRequest("the name or the password is too long") }
        let keys = Self.throttleKeys(name: name, peerAddress: context.remoteAddress?.ipAddress)
        if let wait = throttle.attempt(keys) {
            throw .tooManyRequests("too many failed logins for this name: wait \(wait) s and try again", retryAfterSeconds: wait)
        }
        let user = try await book.user(named: name)
        let hash = try await hashToVerify(for: user)
        let matches = try await offTheEventLoops { Bcrypt.verify(password, hash: hash) }
        guard let user, matches else { throw .unauthorized("wrong name or password") }
        throttle.succeeded(keys)
        let session = WebSession(userID: user.id, name: user.name, role: user.role.rawValue, csrfToken: Self.randomToken())
        context.sessions.setSession(session)
        return session
    }

    /// What a login counts against: the user name (as the store matches it), and the client's address
    /// when it is one: every connection from systemd's socket proxy comes from loopback.
    static func throttleKeys(name: String, peerAddress: String?) -> [String] {
        var keys = ["name:" + TripStore.webUserNameKey(name)]
        if let address = peerAddress, !address.hasPrefix("127."), address != "::1", !address.hasPrefix("::ffff:127.") {
            keys.append("address:" + address)
        }
        return keys
    }

    /// The hash a login for `user` is checked against; for an unknown name, a random one at the cost the
    /// stored users' hashes were made with, so that it takes as long.
    func hashToVerify(for user: WebUser?) async throws(WebError) -> String {
        if let user { return user.passwordHash }
        let costs = try await book.read { db throws(StoreError) in try db.webUsers().compactMap { WebPassword.cost(ofHash: $0.passwordHash) } }
        let cost = costs.max() ?? WebPassword.defaultCost
        let unknown = unknownUserHash
        return try await offTheEventLoops { unknown.hash(cost: cost) }
    }

    /// Runs blocking work (bcrypt: a quarter second or more at cost 12) on NIO's thread pool, never on
    /// an event loop or the two concurrency threads, where it would hold up every other request.
    func offTheEventLoops<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws(WebError) -> T {
        do { return try await NIOThreadPool.singleton.runIfActive(work) } catch { throw .unavailable("the app is shutting down") }
    }

    /// The session, or 401.
    func requireSession(_ context: WebContext) async throws(WebError) -> WebSession {
        guard let session = try await currentSession(context) else { throw .unauthorized("log in first") }
        return session
    }

    /// The request's session while its user still exists with the role it logged in with (one read by
    /// the primary key): a user removed by `fairfuel web user remove` is out at their next request.
    func currentSession(_ context: WebContext) async throws(WebError) -> WebSession? {
        guard let session = context.sessions.session else { return nil }
        let user = try await book.read { db throws(StoreError) in try db.webUser(id: session.userID) }
        guard let user, user.role.rawValue == session.role else {
            context.sessions.clearSession()
            return nil
        }
        return session
    }

    /// Settling, deleting, moving a recorded trip and changing drivers are the family role's.
    func requireFamily(_ session: WebSession, to action: String) throws(WebError) {
        guard session.isFamily else { throw .forbidden("only a family user may \(action); \(session.name) is a driver") }
    }

    /// A form or API change from another site is refused: its Origin (when sent) must be this host.
    func requireSameOrigin(_ request: Request) throws(WebError) {
        guard let origin = request.headers[.origin] else { return }
        let host = request.head.authority ?? ""
        guard origin == "http://\(host)" || origin == "https://\(host)" else {
            throw .forbidden("a form from another site (\(origin)) is refused")
        }
    }

    /// The body, refused with 413 past the upload limit. Read straight into one array sized by the
    /// declared length: collecting into a buffer that doubles as it grows, then copying it out, held
    /// two to three times a photo's size at once.
    func body(_ request: Request, limit: Int? = nil) async throws(WebError) -> [UInt8] {
        let limit = limit ?? configuration.uploadLimitBytes
        let declared = request.headers[.contentLength].flatMap { Int($0) }
        if let declared, declared > limit {
            throw .tooLarge("the upload is \(declared) bytes; at most \(limit) are taken")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(declared ?? min(limit, 64 << 10))
        do {
            for try await fragment in request.body {
                guard bytes.count + fragment.readableBytes <= limit else { throw WebError.tooLarge("") }
                bytes.append(contentsOf: fragment.readableBytesView)
            }
        } catch {
            throw .tooLarge("the upload is larger than \(limit) bytes")
        }
        return bytes
    }

    /// A form's fields, after its CSRF token and origin were checked against the session.
    func form(_ request: Request, session: WebSession) async throws(WebError) -> WebForm {
        try requireSameOrigin(request)
        let form = try WebForm.parse(try await body(request), contentType: request.headers[.contentType])
        guard let token = form.fields["csrf"], constantTimeEqual(token, session.csrfToken) else {
            throw .forbidden("the form's security token is missing or stale: reload the page and send it again")
        }
        return form
    }

    func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
