import FairFuelCore
import FairFuelStore

/// The refusals of a hub with a database, in its `hub_refusals` table (every instance of a group
/// writes there): kept back and written a batch at a time, at the hub's next flush or when
/// `batchLimit` wait, so that a flood of bad messages costs one commit a batch, not one each.
public final class HubDatabaseRefusals: HubRefusalKeeping {
    public static let batchLimit = 256

    private let database: any HubRecordStoring
    private var waiting: [HubRefusal] = []

    public init(_ database: any HubRecordStoring) {
        self.database = database
        waiting.reserveCapacity(Self.batchLimit)
    }

    public func record(vehicle: String, kind: String, messageID: Int64?, reason: String, receivedUTCMs: Int64) throws(PullClientError) {
        waiting.append(HubRefusal(receivedUTCMs: receivedUTCMs, vehicle: vehicle, kind: kind, messageID: messageID, reason: reason))
        if waiting.count >= Self.batchLimit { try flush() }
    }

    public func flush() throws(PullClientError) {
        guard !waiting.isEmpty else { return }
        // Another instance's batch of the same millisecond has another prefix.
        let keyPrefix = Hex.string(PullNonce.random(count: 8)) + "-"
        do { try database.refusalsRecorded(waiting, keyPrefix: keyPrefix) } catch {
            // Kept for the next try, never more than the table would keep.
            if waiting.count > HubRefusalSQL.maximumKept { waiting.removeFirst(waiting.count - HubRefusalSQL.maximumKept) }
            throw .file("the hub's database \(database.location): \(error)")
        }
        waiting.removeAll(keepingCapacity: true)
    }

    /// What every instance of the hub refused, oldest first.
    public static func read(_ database: any HubRecordStoring) throws(PullClientError) -> [HubRefusal] {
        do { return try database.refusals() } catch { throw .file("the hub's database \(database.location): \(error)") }
    }
}
