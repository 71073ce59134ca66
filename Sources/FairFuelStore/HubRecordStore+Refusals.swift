import FairFuelSQLite

/// The refusals in the hub's SQLite file (`HubRefusalSQL`, the statements PostgreSQL runs too).
extension HubRecordStore {
    public func refusalsRecorded(_ refusals: [HubRefusal], keyPrefix: String) throws(StoreError) {
        guard !refusals.isEmpty else { return }
        let write = { () throws in
            for (index, refusal) in refusals.enumerated() {
                _ = try self.connection.run(
                    HubRefusalSQL.insert, .integer(refusal.receivedUTCMs), .text(HubRefusalSQL.key(prefix: keyPrefix, index: index)), .text(refusal.vehicle),
                    .text(refusal.kind), .optional(refusal.messageID), .text(refusal.reason))
            }
            _ = try self.connection.run(HubRefusalSQL.prune, .integer(Int64(HubRefusalSQL.maximumKept)))
        }
        do { connection.isInTransaction ? try write() : try connection.transaction("IMMEDIATE", write) } catch { throw StoreError(error) }
    }

    public func refusals() throws(StoreError) -> [HubRefusal] {
        do {
            return try connection.query(HubRefusalSQL.list, .integer(Int64(HubRefusalSQL.maximumKept))) {
                HubRefusal(receivedUTCMs: $0.int64(0), vehicle: $0.text(1) ?? "", kind: $0.text(2) ?? "", messageID: $0.optionalInt64(3), reason: $0.text(4) ?? "")
            }
        } catch {
            throw StoreError(error)
        }
    }
}
