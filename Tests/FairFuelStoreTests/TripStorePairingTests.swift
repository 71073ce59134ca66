import FairFuelCore
import FairFuelDomain
import FairFuelSQLite
@testable import FairFuelStore
import Testing

/// The USB pull's pairing secret and the closed-trip pages it serves.
@Suite struct TripStorePairingTests {
    @Test func theSecretIsStoredReplacedAndValidated() throws {
        let path = temporaryStorePath()
        let store = try TripStore(path: path)
        #expect(try store.pairingSecretHex() == nil)
        try store.setPairingSecret(hex: "00112233445566778899AABBCCDDEEFF", createdUTCMs: 1)
        #expect(try store.pairingSecretHex() == "00112233445566778899aabbccddeeff")
        try store.setPairingSecret(hex: "ffeeddccbbaa99887766554433221100", createdUTCMs: nil)
        #expect(try store.pairingSecretHex() == "ffeeddccbbaa99887766554433221100")
        for bad in ["", "0011", "zz112233445566778899aabbccddeeff", "00112233445566778899aabbccddeeff00"] {
            #expect(throws: StoreError.self) { try store.setPairingSecret(hex: bad, createdUTCMs: nil) }
        }
        #expect(try store.pairingSecretHex() == "ffeeddccbbaa99887766554433221100", "a refused secret changes nothing")
        #expect(try store.connection.scalarInt("SELECT COUNT(*) FROM pairing") == 1)
        // A reader (usb-serve) sees it too.
        #expect(try TripStore(path: path, readOnly: true).pairingSecretHex() == "ffeeddccbbaa99887766554433221100")
        #expect(try Migrator([]).applied(in: store.connection).contains("2026-12-06-pairing"))
    }

    @Test func closedSessionsPageByIDAndLeaveTheOpenOneOut() throws {
        let store = try TripStore(path: temporaryStorePath())
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        for index in 0..<5 {
            try TripStoreSplitTests.session(store, driver: alice, name: "Alice", start: Double(index), end: Double(index) + 0.5, liters: 1)
        }
        let run = try store.beginRun(note: "open")
        _ = try store.openSession(driver: alice, driverName: "Alice", run: run, startLinkMs: 0, startUTCMs: TripStoreSplitTests.t0 + 10 * TripStoreSplitTests.hour)
        let first = try store.closedSessions(afterID: 0, sinceUTCMs: nil, limit: 3)
        #expect(first.map(\.id.rawValue) == [1, 2, 3])
        let rest = try store.closedSessions(afterID: 3, sinceUTCMs: nil, limit: 3)
        #expect(rest.map(\.id.rawValue) == [4, 5], "the open session 6 is not served")
        let since = try store.closedSessions(afterID: 0, sinceUTCMs: TripStoreSplitTests.t0 + 2 * TripStoreSplitTests.hour, limit: 10)
        #expect(since.map(\.id.rawValue) == [3, 4, 5])
    }
}
