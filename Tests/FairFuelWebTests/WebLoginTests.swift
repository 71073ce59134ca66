import FairFuelStore
@testable import FairFuelWeb
import Foundation
import Hummingbird
import NIOPosix
import Testing
import TestSupport

/// Logins and sessions against a real store on a real loopback port: guesses sent together, bcrypt
/// off the event loops, an unknown name's hash, a removed user's session, idle connections.
@Suite(.serialized) struct WebLoginTests {
    @Test func guessesSentTogetherAreEachCountedBeforeBcryptRuns() async throws {
        let db = try WebRig.store()
        try await WebRig.serve(db) { web in
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for attempt in 0..<20 {
                    group.addTask { try await WebClient(port: web.port).logIn("mum", "wrong \(attempt)").status }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            let verified = statuses.filter { $0 == .unauthorized }.count
            // 10 allowed, then a 10 s wait: only a guess arriving that late could pass, never all 20.
            #expect(verified >= 10 && verified <= 11, "\(statuses)")
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 20 - verified, "\(statuses)")
        }
    }

    /// Bcrypt (a quarter second or more at cost 12) runs on NIO's thread pool: never on an event loop
    /// nor on the two concurrency threads, where it would hold up every other request. Checked by
    /// where the work runs, not by a race of timings (a loaded machine would decide that race).
    @Test func bcryptRunsOffTheEventLoopsSoLoginsDoNotStallOtherRequests() async throws {
        let db = try WebRig.store()
        let app = try WebApp(configuration: WebRig.configuration(db))
        let (onEventLoop, threadName) = try await app.offTheEventLoops { () -> (Bool, String) in
            (MultiThreadedEventLoopGroup.currentEventLoop != nil, Thread.current.name ?? "")
        }
        #expect(!onEventLoop && threadName.contains("TP-#"), "ran on \(threadName)")
        // And through the app: eight logins at once and the login page between them all answered.
        try await WebRig.serve(db) { web in
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for index in 0..<8 { group.addTask { try await WebClient(port: web.port).logIn("guest\(index)", "wrong password").status } }
                group.addTask { try await WebClient(port: web.port).send(.get, "/login").status }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .unauthorized }.count == 8 && statuses.contains(.ok), "\(statuses)")
        }
    }

    @Test func anUnknownNameIsCheckedAtTheCostOfTheStoredHashes() async throws {
        let db = try WebRig.store()
        let app = try WebApp(configuration: WebRig.configuration(db))
        let mum = try #require(try await app.book.user(named: "mum"))
        #expect(WebPassword.cost(ofHash: mum.passwordHash) == WebPassword.defaultCost)
        let unknown = try await app.hashToVerify(for: nil)
        #expect(WebPassword.cost(ofHash: unknown) == WebPassword.cost(ofHash: mum.passwordHash))
        #expect(try await app.hashToVerify(for: mum) == mum.passwordHash)
        // A user hashed dearer (by hand, as an older or newer `user add` might) raises it too.
        let store = try TripStore(path: db)
        try store.addWebUser(name: "gran", role: .driver, passwordHash: try WebPassword.hash("gran-secret-1", cost: 13), atUTCMs: 0)
        #expect(WebPassword.cost(ofHash: try await app.hashToVerify(for: nil)) == 13)
    }

    @Test func aRemovedUserIsOutAtTheirNextRequestAndUserListSaysWhoIsLeft() async throws {
        let db = try WebRig.store()
        let listed = try #require(try WebRig.cliJSON(["web", "user", "list", "--json"], db: db) as? [[String: String]])
        #expect(listed.map { [$0["name"], $0["role"]] } == [["mum", "family"], ["cara", "driver"]], "\(listed)")
        #expect(listed.allSatisfy { $0["created_utc"]?.hasSuffix("Z") == true }, "\(listed)")
        try await WebRig.serve(db) { web in
            let mum = WebClient(port: web.port)
            #expect(try await mum.logIn("mum", WebRig.familyPassword).status == .ok)
            let cara = WebClient(port: web.port)
            #expect(try await cara.logIn("cara", WebRig.driverPassword).status == .ok)
            #expect(try await cara.send(.get, "/api/v1/session").status == .ok)

            let removed = try WebRig.cli(["web", "user", "remove", "Cara", "--db", db])
            #expect(removed.exitCode == 0 && removed.standardOutput.contains("web user cara removed"), "\(removed.standardError)")
            #expect(try await cara.send(.get, "/api/v1/session").status == .unauthorized)
            let page = try await cara.send(.get, "/")
            #expect(page.status == .seeOther && page.headers[.location] == "/login")
            #expect(try await mum.send(.get, "/api/v1/session").status == .ok, "another user's session stays")

            // A new role is a new user: mum's family session ends when she comes back as a driver.
            #expect(try WebRig.cli(["web", "user", "remove", "mum", "--db", db]).exitCode == 0)
            let readded = try WebRig.cli(["web", "user", "add", "mum", "--role", "driver", "--db", db], input: WebRig.familyPassword + "\n")
            #expect(readded.exitCode == 0, "\(readded.standardError)")
            #expect(try await mum.send(.get, "/api/v1/session").status == .unauthorized)
            #expect(try await mum.logIn("mum", WebRig.familyPassword).object["role"] as? String == "driver")
        }
        // An unknown name is a clear error and changes nothing.
        let unknown = try WebRig.cli(["web", "user", "remove", "nobody", "--db", db])
        #expect(unknown.exitCode != 0 && unknown.standardError.contains("no web user named 'nobody'"), "\(unknown.standardError)")
        let list = try WebRig.cli(["web", "user", "list", "--db", db])
        #expect(list.exitCode == 0 && list.standardOutput == "mum  driver\n", "\(list.standardOutput)")
    }

    @Test func idleAndStalledConnectionsAreClosed() async throws {
        let db = try WebRig.store()
        try await WebRig.serve(db, configure: { $0.connectionIdleTimeoutSeconds = 1 }) { web in
            let port = web.port
            // Nothing sent, then half a request's head: both closed after about a second.
            let (idle, stalled) = try await withCheckedThrowingContinuation { (done: CheckedContinuation<(Double?, Double?), any Error>) in
                Thread {
                    done.resume(with: Result {
                        (try LoopbackHTTP.secondsUntilClosed(port: port, sending: [], giveUpSeconds: 10),
                         try LoopbackHTTP.secondsUntilClosed(port: port, sending: Array("GET / HTTP/1.1\r\nHost: x\r\n".utf8), giveUpSeconds: 10))
                    })
                }.start()
            }
            #expect(idle.map { $0 < 5 } == true, "an idle connection was open for \(idle.map { "\($0) s" } ?? "10 s and more")")
            #expect(stalled.map { $0 < 5 } == true, "a stalled request was open for \(stalled.map { "\($0) s" } ?? "10 s and more")")
            #expect(try await web.send(.get, "/login").status == .ok, "the app still serves")
        }
    }
}
