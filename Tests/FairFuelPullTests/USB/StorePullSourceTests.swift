@testable import FairFuelPull
import FairFuelStore
import Foundation
import Testing

/// The dongle's side of a pull: record lines as `docs/usb-pull-protocol.md` lists them.
@Suite struct StorePullSourceTests {
    static let t0: Int64 = 1_795_000_000_000

    @Test func untrackedDrivingGivenToADriverIsPulledAsAssignedAsTripsListsIt() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-pull-source-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try TripStore(path: directory + "/store.db")
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        try store.addUntracked(fromUTCMs: Self.t0, toUTCMs: Self.t0 + 3_600_000, distanceMeters: 20_000, fuelLiters: 3)
        let untracked = try #require(try store.untrackedDriving().first)
        _ = try store.assignTrips([.untracked(untracked.id)], to: alice)

        var source = StorePullSource(store: store)
        let page = try source.page(for: PullRequest(requestID: 1, kind: .trips))
        let line = try #require(String(decoding: page.text, as: UTF8.self).split(separator: "\n").first)
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        #expect(fields[2] == "Alice")
        #expect(fields[5] == "assigned", "the stored reason is manual; a reader across cars must know it as trips does")
        // The laptop's row of it has no motion figures of its own: "-" in tables, no eco score.
        let row = try PulledRecords.trip(fields)
        #expect(!row.hasMotionFigures)
        #expect(row.distanceMeters == 20_000)
    }
}
