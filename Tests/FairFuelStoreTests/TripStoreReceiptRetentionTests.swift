import FairFuelCore
@testable import FairFuelStore
import Testing

/// Receipt photos are bounded twice: a total the web app's `[web] receipts_limit_mib` sets, and the
/// store's disk budget, under which the oldest photos go before any track is thinned.
@Suite struct TripStoreReceiptRetentionTests {
    static let day: Int64 = 86_400_000
    static let t0: Int64 = 1_790_000_000_000

    /// `count` refuels a day apart, each with a photo of `photoBytes` (noise: nothing shrinks it).
    static func refuelsWithPhotos(_ store: TripStore, photoBytes: Int, count: Int = 5) throws -> [Int64] {
        var generator = SystemRandomNumberGenerator()
        return try (0..<count).map { day in
            let id = try store.addRefuel(RefuelInput(atUTCMs: t0 + Int64(day) * Self.day, liters: 30, cost: MinorUnits(6_000)))
            let photo = (0..<photoBytes).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try store.attachReceipt(refuel: id, mediaType: "image/jpeg", image: photo, totalLimitBytes: 64 << 20)
            return id
        }
    }

    @Test func aPhotoPastTheTotalIsRefusedAndNothingChanges() throws {
        let store = try TripStore(path: temporaryStorePath())
        let ids = try Self.refuelsWithPhotos(store, photoBytes: 1_000)
        #expect(try store.receiptBytes() == 5_000)
        let before = try store.receipt(refuel: ids[0])
        #expect(throws: StoreError.self) {
            try store.attachReceipt(refuel: ids[0], mediaType: "image/png", image: [UInt8](repeating: 1, count: 2_000), totalLimitBytes: 5_500)
        }
        #expect(try store.receipt(refuel: ids[0])?.image == before?.image && store.receiptBytes() == 5_000)
        // Replacing a refuel's own photo counts the others only.
        try store.attachReceipt(refuel: ids[0], mediaType: "image/png", image: [UInt8](repeating: 1, count: 1_500), totalLimitBytes: 5_500)
        #expect(try store.receiptBytes() == 5_500)
        let refusal = try #require(TripStore.receiptRefusal(imageBytes: 3 << 20, storedBytes: 254 << 20, totalLimitBytes: 256 << 20))
        #expect(refusal.contains("receipts_limit_mib") && refusal.contains("254 MiB") && refusal.contains("nothing was saved"))
    }

    @Test func overTheDiskBudgetTheOldestPhotosGoFirstAndTheBookStays() throws {
        let path = temporaryStorePath()
        let roomy = try TripStore(path: path)
        let ids = try Self.refuelsWithPhotos(roomy, photoBytes: 1 << 20)
        let refuels = try roomy.refuels()
        let store = try TripStore(path: path, configuration: StoreConfiguration(retention: RetentionPolicy(diskBudgetBytes: 4 << 20)))
        #expect(try store.projectedBytes() > store.configuration.retention.pruneStartBytes)
        let report = try store.enforceRetention(nowUTCMs: nil)
        #expect(report.receiptsDeleted >= 2 && report.receiptsDeleted < 5, "\(report)")
        #expect(report.sessionsSimplifiedForBudget == 0 && !report.overBudget)
        #expect(try store.projectedBytes() <= store.configuration.retention.pruneTargetBytes)
        // The newest photos stay; every refuel stays.
        #expect(try store.refuelsWithReceipts() == Set(ids.suffix(5 - report.receiptsDeleted)))
        #expect(try store.refuels().map(\.id) == refuels.map(\.id))
        #expect(try store.checkIntegrity(full: true) == [])
    }

    @Test func aFullDiskDropsTheOldestPhotos() throws {
        let store = try TripStore(path: temporaryStorePath())
        let ids = try Self.refuelsWithPhotos(store, photoBytes: 4_096, count: 10)
        store.relieveDiskPressure()
        // A batch of eight, oldest first; the refuels stay.
        #expect(try store.refuelsWithReceipts() == Set(ids.suffix(2)))
        #expect(try store.refuels().count == 10)
    }
}
