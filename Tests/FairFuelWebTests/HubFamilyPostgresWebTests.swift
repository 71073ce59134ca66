import FairFuelHubPostgres
import FairFuelStore
@testable import FairFuelWeb
import Foundation
import Testing
import TestSupport

/// `fairfuel web --hub-db postgres://…`: the real CLI serves the family view of a hub on a real
/// PostgreSQL server (started by the test), the same view as of the same records in a SQLite
/// file, read through the CLI's opener (the web app links no PostgreSQL client of its own).
@Suite(.serialized, .tags(.integration), .enabled(if: PostgresHarness.toolsPresent, "\(PostgresHarness.missingMessage)"))
struct HubFamilyPostgresWebTests {
    /// The family API's answer for November 2026, logged in as the family user.
    static func familyJSON(_ web: WebClient) async throws -> String {
        #expect(try await web.logIn("mum", WebRig.familyPassword).status == .ok)
        let reply = try await web.send(.get, "/api/v1/family?month=2026-11")
        #expect(reply.status == .ok, "\(reply.text)")
        return reply.text
    }

    @Test(.timeLimit(.minutes(3)))
    func theCLIServesTheFamilyViewOfAPostgreSQLHubAsOfASQLiteOne() async throws {
        let (hub, users) = try HubFamilyWebTests.rig()
        let server = try PostgresHarness()
        defer { server.shutDown() }
        try HubFamilyWebTests.hubRecords(into: try HubPostgresStore(url: server.url()))
        let fromFile = try await WebRig.serve(users, hub: try HubFamily(path: hub)) { web in try await Self.familyJSON(web) }

        let port = try #require(freeLoopbackPort())
        let log = (users as NSString).deletingLastPathComponent + "/web-postgres.log"
        let web = try ChildProcess(
            FairFuelExecutable.path, ["web", "--hub-db", server.url(), "--db", users, "--listen", "127.0.0.1:\(port)"], logPath: log, lifetimeSeconds: 150)
        defer { web.stop() }
        let deadline = Date().addingTimeInterval(60)
        while !web.log.contains("serving"), web.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(web.log.contains("fairfuel web: serving \(server.url()) on http://127.0.0.1:\(port)/"), "\(web.log)")
        let fromServer = try await Self.familyJSON(WebClient(port: port))
        #expect(fromServer == fromFile)
        #expect(fromServer.contains("\"Golf\"") && fromServer.contains("\"Zoe\""), "\(fromServer)")

        // `family` over the same URL agrees, and a wrong database is a clear error before anything listens.
        #expect(try HubFamilyWebTests.cliOutput(["family", "--json", server.url()]) == HubFamilyWebTests.cliOutput(["family", "--json", hub]))
        let wrong = try WebRig.cli(["web", "--hub-db", server.url(database: "nosuchdb"), "--db", users, "--listen", "127.0.0.1:0"])
        #expect(wrong.exitCode != 0 && wrong.standardError.contains("nosuchdb"), "\(wrong.standardError)")
    }
}
