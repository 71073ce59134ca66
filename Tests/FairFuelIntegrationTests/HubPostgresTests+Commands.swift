import FairFuelHubPostgres
import FairFuelStore
import Foundation
import Testing
import TestSupport

extension IntegrationTests.HubPostgresTests {
    /// The command log on PostgreSQL, through `HubCommandSQL` as on SQLite: one instance lists a
    /// command, another records the car's answer once, a repeat or another car's answer changes
    /// nothing, a withdrawn command is gone, and both instances list the same.
    @Test(.timeLimit(.minutes(2)))
    func theCommandLogIsSharedByTheInstancesAndAnswersOnlyWhatIsPending() throws {
        let server = try PostgresHarness()
        defer { server.shutDown() }
        let sender = try HubPostgresStore(url: server.url())
        let collector = try HubPostgresStore(url: server.url())
        try sender.commandSent(vehicle: Self.car, id: "c1", name: "refuel_add", sentUTCMs: 1_000)
        try sender.commandSent(vehicle: Self.car, id: "c2", name: "settle", sentUTCMs: 2_000)
        try sender.commandSent(vehicle: Self.car, id: "c3", name: "settle", sentUTCMs: 3_000)
        #expect(try collector.pendingCommandCount(vehicle: Self.car) == 3)
        #expect(try collector.commandAnswered(vehicle: Self.car, id: "c1", outcome: "applied", reason: "refuel 4 added", answeredUTCMs: 4_000))
        #expect(try !collector.commandAnswered(vehicle: Self.car, id: "c1", outcome: "applied", reason: nil, answeredUTCMs: 4_001))
        #expect(try !collector.commandAnswered(vehicle: Self.copier, id: "c2", outcome: "applied", reason: nil, answeredUTCMs: 4_002))
        #expect(try collector.commandAnswered(vehicle: Self.car, id: "c2", outcome: "refused", reason: nil, answeredUTCMs: 5_000))
        try sender.commandWithdrawn(vehicle: Self.car, id: "c3")
        let expected = [
            HubCommandEntry(vehicle: Self.car, id: "c1", name: "refuel_add", sentUTCMs: 1_000, state: "applied", reason: "refuel 4 added"),
            HubCommandEntry(vehicle: Self.car, id: "c2", name: "settle", sentUTCMs: 2_000, state: "refused", reason: nil),
        ]
        #expect(try sender.commands(vehicle: Self.car) == expected)
        #expect(try collector.commands(vehicle: nil) == expected)
        #expect(try sender.pendingCommandCount(vehicle: Self.car) == 0)
        #expect(try sender.commands(vehicle: Self.copier).isEmpty)
    }
}
