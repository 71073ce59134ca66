import FairFuelReports
import FairFuelStore
@testable import FairFuelWeb
import Foundation
import Hummingbird
import ServiceLifecycle
import Testing
import TestSupport
import Synchronization

/// A real store made by the real `fairfuel` (drivers, two replayed drives with untracked driving,
/// bills), web users added by `fairfuel web user add`, and the web app on a real loopback port.
enum WebRig {
    static let familyPassword = "family-secret-1"
    static let driverPassword = "driver-secret-1"

    /// The refuels here are dated November 2026: "now" for the CLI's future check is after them.
    static func cli(_ arguments: [String], input: String? = nil) throws -> CommandResult {
        try FairFuelExecutable.run(arguments, input: input, environment: ["FAIRFUEL_NOW": "2027-01-01T00:00:00Z"])
    }

    static func cliJSON(_ arguments: [String], db: String) throws -> Any {
        let result = try cli(arguments + ["--db", db])
        #expect(result.exitCode == 0, "\(arguments): \(result.standardError)")
        return try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
    }

    static func store() throws -> String {
        let directory = NSTemporaryDirectory() + "fairfuel-web-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let db = directory + "/fairfuel.db"
        let setup: [[String]] = [
            ["provision", "driver", "add", "Alice", "--tag", "fairfuel://driver/3F2A1B4C-5D6E-4F70-8192-A3B4C5D6E7F8"],
            ["provision", "driver", "add", "Bob", "--tag", "04a22b7a"],
            ["provision", "driver", "add", "Cara"],
            ["replay", PackagePaths.root + "/samples/drive-20s.ffcap"],
            ["replay", PackagePaths.root + "/samples/drive-20s.ffcap", "--again"],
            ["refuel", "--at", "2026-11-20T07:00:00Z", "--liters", "42", "--cost", "75.60", "--odometer-km", "12000"],
            ["refuel", "--at", "2026-11-20T09:00:00Z", "--liters", "1.5", "--cost", "2.71", "--odometer-km", "12001"],
            // A third bill: the car's usual price per litre is the median of at least three.
            ["refuel", "--at", "2026-11-21T09:00:00Z", "--liters", "2", "--cost", "3.62", "--odometer-km", "12002"],
        ]
        for arguments in setup {
            let result = try cli(arguments + ["--db", db])
            #expect(result.exitCode == 0, "\(arguments): \(result.standardError)")
        }
        for (name, role, password) in [("mum", "family", familyPassword), ("cara", "driver", driverPassword)] {
            let result = try cli(["web", "user", "add", name, "--role", role, "--db", db], input: password + "\n")
            #expect(result.exitCode == 0, "\(result.standardError)")
        }
        return db
    }

    /// "Now" (2026-11-29, after the bills) moves on two minutes at each look: refuels entered one after the other are not the same refuel twice.
    static let clock = Atomic<Int64>(0)

    static func configuration(_ db: String, uploadLimitBytes: Int = 256 << 10, receiptsLimitBytes: Int64 = 256 << 20) -> WebConfiguration {
        WebConfiguration(
            storePath: db, host: "127.0.0.1", port: 0, uploadLimitBytes: uploadLimitBytes, receiptsLimitBytes: receiptsLimitBytes, loginFailuresAllowed: 10, loginLongestWaitSeconds: 60,
            units: { DisplayUnits(units: $0.units, currency: $0.currency, currencyMinorDigits: $0.currencyMinorDigits) },
            nowUTCMs: { 1_796_000_000_000 + clock.add(1, ordering: .relaxed).newValue * 120_000 })
    }

    /// The app on a free loopback port for the length of `body`, then shut down as at SIGTERM.
    /// `configure`: changes to the rig's configuration (another clock, a shorter idle timeout).
    static func serve<T: Sendable>(
        _ db: String, hub: HubFamily? = nil, receiptsLimitBytes: Int64 = 256 << 20, configure: (inout WebConfiguration) -> Void = { _ in },
        _ body: @Sendable (WebClient) async throws -> T
    ) async throws -> T {
        var configuration = configuration(db, receiptsLimitBytes: receiptsLimitBytes)
        configure(&configuration)
        let app = try WebApp(configuration: configuration, hub: hub)
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let server = ServiceGroup(configuration: .init(
            services: [app.application(onRunning: { portSink.yield($0) })], gracefulShutdownSignals: [], logger: app.logger))
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await server.run()
                return nil
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw LoopbackHTTP.Failure(description: "the app never listened") }
            defer { Task { await server.triggerGracefulShutdown() } }
            let result = try await body(WebClient(port: port))
            await server.triggerGracefulShutdown()
            for try await _ in group {}
            return result
        }
    }
}

/// A browser's part: the cookies it was given, sent back; JSON in and out.
final class WebClient: @unchecked Sendable {
    let port: Int
    private let lock = NSLock()
    private var cookies: [String: String] = [:]
    var csrfToken = ""

    init(port: Int) { self.port = port }

    struct Reply {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var bytes: [UInt8]
        var text: String { String(decoding: bytes, as: UTF8.self) }
        var json: Any? { try? JSONSerialization.jsonObject(with: Data(text.utf8)) }
        var object: [String: Any] { json as? [String: Any] ?? [:] }
    }

    @discardableResult
    func send(_ method: HTTPRequest.Method, _ uri: String, json: String? = nil, form: String? = nil, contentType: String? = nil,
              body: [UInt8]? = nil, csrf: Bool = true, headers extra: HTTPFields = [:]) async throws -> Reply {
        var headers = extra
        let jar = lock.withLock { cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
        if !jar.isEmpty { headers[.cookie] = jar }
        var payload: [UInt8]?
        if let json {
            headers[.contentType] = "application/json"
            payload = Array(json.utf8)
        } else if let form {
            headers[.contentType] = "application/x-www-form-urlencoded"
            payload = Array(form.utf8)
        } else if let body {
            headers[.contentType] = contentType
            payload = body
        }
        if csrf, method == .post, !csrfToken.isEmpty { headers[.init("X-CSRF-Token")!] = csrfToken }
        let (port, sent, sentBody) = (self.port, headers, payload)
        // On a thread of its own: a blocking exchange on the concurrency pool (two cores, two threads) would
        // starve the app's own handlers when suites run side by side, and the exchange would wait forever.
        let response = try await withCheckedThrowingContinuation { (done: CheckedContinuation<LoopbackHTTP.Answer, any Error>) in
            Thread {
                done.resume(with: Result { try LoopbackHTTP.exchange(port: port, method: method, path: uri, headers: sent, body: sentBody) })
            }.start()
        }
        for value in response.headers[values: .setCookie] {
            let pair = value.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            lock.withLock { cookies[String(pair[0])] = String(pair[1]) }
        }
        return Reply(status: response.status, headers: response.headers, bytes: response.body)
    }

    /// Logs in through the API and keeps the session's CSRF token.
    func logIn(_ name: String, _ password: String) async throws -> Reply {
        let reply = try await send(.post, "/api/v1/login", json: "{\"username\":\"\(name)\",\"password\":\"\(password)\"}", csrf: false)
        if let token = reply.object["csrf_token"] as? String { csrfToken = token }
        return reply
    }

    func setCookieHeaders(_ reply: Reply) -> [String] { reply.headers[values: .setCookie] }
}
