import FairFuelSQLite

/// The command log in the hub's SQLite file (`HubCommandSQL`, the statements PostgreSQL runs too).
extension HubRecordStore {
    public func commandSent(vehicle: String, id: String, name: String, sentUTCMs: Int64) throws(StoreError) {
        do { _ = try connection.run(HubCommandSQL.sent, .text(vehicle), .text(id), .text(name), .integer(sentUTCMs)) } catch {
            throw StoreError(error)
        }
    }

    public func commandWithdrawn(vehicle: String, id: String) throws(StoreError) {
        do { _ = try connection.run(HubCommandSQL.withdrawn, .text(vehicle), .text(id)) } catch { throw StoreError(error) }
    }

    public func commandAnswered(vehicle: String, id: String, outcome: String, reason: String?, answeredUTCMs: Int64) throws(StoreError) -> Bool {
        // The answer and the pruning go together; inside a caller's transaction they are part of it.
        let answer = { () throws -> Bool in
            let answered = !(try self.connection.query(
                HubCommandSQL.answered, .text(outcome), .optional(reason), .integer(answeredUTCMs), .text(vehicle), .text(id)
            ) { $0.text(0) }).isEmpty
            if answered { _ = try self.connection.run(HubCommandSQL.pruneAnswered, .integer(Int64(HubCommandSQL.maximumAnswered))) }
            return answered
        }
        do { return connection.isInTransaction ? try answer() : try connection.transaction("IMMEDIATE", answer) } catch {
            throw StoreError(error)
        }
    }

    public func commands(vehicle: String?) throws(StoreError) -> [HubCommandEntry] {
        do {
            return try connection.query(HubCommandSQL.list, .text(vehicle ?? "")) {
                HubCommandEntry(
                    vehicle: $0.text(0) ?? "", id: $0.text(1) ?? "", name: $0.text(2) ?? "", sentUTCMs: $0.int64(3), state: $0.text(4) ?? "",
                    reason: $0.text(5))
            }
        } catch {
            throw StoreError(error)
        }
    }

    public func pendingCommandCount(vehicle: String) throws(StoreError) -> Int {
        do { return Int(try connection.scalarInt(HubCommandSQL.pendingCount, .text(vehicle)) ?? 0) } catch { throw StoreError(error) }
    }
}
