@testable import FairFuelWeb
import Foundation
import Hummingbird
import Testing
import TestSupport

/// Moving a refuel's time on its correction page and through the API: `fairfuel refuel edit --at`'s
/// rules and result. Each move is made by the app on one copy of the store and by the CLI on another;
/// the bills of the two copies, read with the CLI, are the same.
@Suite(.serialized) struct WebRefuelMoveTests {
    /// The rig's store (`settled`: these bills settled) and a copy of it, for the CLI to make the same correction on.
    static func twins(settled: [String] = []) throws -> (web: String, cli: String) {
        let web = try WebRig.store()
        if !settled.isEmpty { #expect(try WebRig.cli(["refuel", "settle"] + settled + ["--db", web]).exitCode == 0) }
        let cli = web.replacing("fairfuel.db", with: "cli.db")
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: web + suffix) {
            try FileManager.default.copyItem(atPath: web + suffix, toPath: cli + suffix)
        }
        return (web, cli)
    }

    /// The bills and the fuel log of the store, as the CLI prints them (text: it crosses into the server's task).
    static func books(_ db: String) throws -> [String] {
        try [["split", "--json"], ["refuel", "list", "--json"]].map { arguments in
            let result = try WebRig.cli(arguments + ["--db", db])
            #expect(result.exitCode == 0, "\(arguments): \(result.standardError)")
            return result.standardOutput
        }
    }

    static func refuelAt(_ id: Int, db: String) throws -> String? {
        (try WebRig.cliJSON(["refuel", "list", "--json"], db: db) as? [[String: Any]])?.first { $0["id"] as? Int == id }?["at_utc"] as? String
    }

    @Test func aRefuelMovedOnItsPageIsSplitAsTheCLIMovesIt() async throws {
        let (db, twin) = try Self.twins()
        let before = try Self.books(db)
        try await WebRig.serve(db) { web in
            _ = try await web.logIn("mum", WebRig.familyPassword)
            let page = try await web.send(.get, "/refuels/2/edit")
            #expect(page.text.contains("name=\"at\" type=\"datetime-local\" required value=\"2026-11-20T09:00\""), "\(page.text.prefix(600))")
            let csrf = "csrf=\(web.csrfToken)"
            let unchanged = "&liters=1.50&cost=2.71&full=1&odometer_km=12001.0"
            // A year too far: refused in the words of `refuel edit --at`, nothing changed.
            let future = try await web.send(.post, "/refuels/2/edit", form: "\(csrf)&at=2027-11-20T07:30\(unchanged)", csrf: false)
            #expect(future.status == .conflict && future.text.contains("is in the future"), "\(future.text.prefix(600))")
            let typo = try await web.send(.post, "/refuels/2/edit", form: "\(csrf)&at=2025-11-20T07:30\(unchanged)", csrf: false)
            #expect(typo.status == .unprocessableContent && typo.text.contains("before the car&apos;s first record"), "\(typo.text.prefix(600))")
            #expect(try Self.books(db) == before)
            // Before the drive at 08:00: bill 2 loses Alice's driving to bill 3.
            let moved = try await web.send(.post, "/refuels/2/edit", form: "\(csrf)&at=2026-11-20T07:30\(unchanged)", csrf: false)
            #expect(moved.status == .ok && moved.text.contains("refuel 2 corrected"), "\(moved.text.prefix(600))")
        }
        let cli = try WebRig.cli(["refuel", "edit", "2", "--at", "2026-11-20T07:30", "--db", twin])
        #expect(cli.exitCode == 0, "\(cli.standardError)")
        #expect(try Self.refuelAt(2, db: db) == "2026-11-20T07:30:00.000Z")
        let after = try Self.books(db)
        #expect(after == (try Self.books(twin)))
        #expect(after[0] != before[0], "the move re-split the bills")
        // The CLI refuses the same typo with the same words.
        let typo = try WebRig.cli(["refuel", "edit", "2", "--at", "2025-11-20T07:30", "--db", twin])
        #expect(typo.exitCode != 0 && typo.standardError.contains("before the car's first record"), "\(typo.standardError)")
    }

    @Test func aMoveThroughTheAPIAsksBeforeASettledBillWouldMoveAndRefusesOneInsideIt() async throws {
        let (db, twin) = try Self.twins(settled: ["3"])
        let before = try Self.books(db)
        try await WebRig.serve(db) { web in
            _ = try await web.logIn("mum", WebRig.familyPassword)
            for (at, status, words) in [
                ("2026-12-25T10:00:00Z", HTTPResponse.Status.conflict, "is in the future"), ("yesterday", .badRequest, "at: "),
                ("2025-11-20T07:30:00Z", .unprocessableContent, "before the car's first record"),
                // Bill 3 is settled: the move would take Alice's driving into it.
                ("2026-11-20T07:30:00Z", .conflict, "settled"),
            ] {
                let refused = try await web.send(.post, "/api/v1/refuels/2/edit", json: "{\"at\":\"\(at)\"}")
                #expect(refused.status == status && (refused.object["message"] as? String ?? "").contains(words), "\(at): \(refused.text)")
            }
            #expect(try Self.books(db) == before)
            let confirmed = try await web.send(.post, "/api/v1/refuels/2/edit", json: "{\"at\":\"2026-11-20T07:30:00Z\",\"confirm\":true}")
            #expect(confirmed.status == .ok && confirmed.object["id"] as? Int == 2, "\(confirmed.text)")
            // Into the settled bill's own period: refused, confirmed or not.
            let inside = try await web.send(.post, "/api/v1/refuels/2/edit", json: "{\"at\":\"2026-11-20T12:00:00Z\",\"confirm\":true}")
            #expect(inside.status == .unprocessableContent, "\(inside.text)")
        }
        let cli = try WebRig.cli(["refuel", "edit", "2", "--at", "2026-11-20T07:30:00Z", "--force", "--db", twin])
        #expect(cli.exitCode == 0, "\(cli.standardError)")
        let after = try Self.books(db)
        #expect(after == (try Self.books(twin)))
        #expect(after[1] != before[1])
        #expect(try WebRig.cli(["refuel", "edit", "2", "--at", "2026-11-20T12:00:00Z", "--force", "--db", twin]).exitCode != 0)
    }
}
