import FairFuelStore

/// Where a hub keeps the commands it sent and their answers: a hub directory's file
/// (`HubCommandLog`) or the hub's database (`HubDatabaseCommandLog`).
public protocol HubCommandKeeping: AnyObject {
    /// Lists a command as pending (before it is published, so that an answer never overtakes it).
    func sent(vehicle: String, id: String, name: String, atUTCMs: Int64) throws(PullClientError)
    /// Forgets a pending command the broker never took.
    func withdrawn(vehicle: String, id: String) throws(PullClientError)
    /// Records an answer when it answers a pending command (true); any other answer is dropped.
    @discardableResult
    func answer(_ result: HubCommandResult, atUTCMs: Int64) throws(PullClientError) -> Bool
    /// How many of `vehicle`'s commands wait for its answer.
    func pendingCount(vehicle: String) throws(PullClientError) -> Int
    /// The commands kept (nil: every car's), oldest first, each with its latest state.
    func commands(vehicle: String?) throws(PullClientError) -> [HubCommandEntry]
}

extension HubCommandKeeping {
    /// Takes a message from `<prefix>/<vehicle>/command/result`; true when it answered a pending command.
    @discardableResult
    public func answer(topic: String, payload: [UInt8], atUTCMs: Int64) throws(PullClientError) -> Bool {
        guard let result = HubCommandResult(topic: topic, payload: payload) else { return false }
        return try answer(result, atUTCMs: atUTCMs)
    }
}
