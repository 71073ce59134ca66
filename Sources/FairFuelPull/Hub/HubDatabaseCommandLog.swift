import FairFuelStore

/// The commands a hub sent and their answers in the hub's database (`hub_commands`, SQLite or
/// PostgreSQL), for `fairfuel hub --db`, `hub command --db`, `hub status --db` and the hub's web
/// app: the collecting hub records the answers the others wait for.
public final class HubDatabaseCommandLog: HubCommandKeeping {
    private let database: any HubRecordStoring

    public init(_ database: any HubRecordStoring) {
        self.database = database
    }

    public func sent(vehicle: String, id: String, name: String, atUTCMs: Int64) throws(PullClientError) {
        do { try database.commandSent(vehicle: vehicle, id: id, name: name, sentUTCMs: atUTCMs) } catch { throw failure(error) }
    }

    public func withdrawn(vehicle: String, id: String) throws(PullClientError) {
        do { try database.commandWithdrawn(vehicle: vehicle, id: id) } catch { throw failure(error) }
    }

    @discardableResult
    public func answer(_ result: HubCommandResult, atUTCMs: Int64) throws(PullClientError) -> Bool {
        do {
            return try database.commandAnswered(
                vehicle: result.vehicle, id: result.id, outcome: result.outcome, reason: result.reason, answeredUTCMs: atUTCMs)
        } catch {
            throw failure(error)
        }
    }

    public func pendingCount(vehicle: String) throws(PullClientError) -> Int {
        do { return try database.pendingCommandCount(vehicle: vehicle) } catch { throw failure(error) }
    }

    public func commands(vehicle: String?) throws(PullClientError) -> [HubCommandEntry] {
        do { return try database.commands(vehicle: vehicle) } catch { throw failure(error) }
    }

    private func failure(_ error: StoreError) -> PullClientError {
        .file("the hub's database \(database.location): \(error)")
    }
}
