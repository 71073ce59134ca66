/// Where a hub keeps the messages it refused: a hub directory's file (`HubRefusals`) or the hub's
/// database (`HubDatabaseRefusals`), either way the newest `HubRefusalSQL.maximumKept` only.
public protocol HubRefusalKeeping: AnyObject {
    func record(vehicle: String, kind: String, messageID: Int64?, reason: String, receivedUTCMs: Int64) throws(PullClientError)
    /// Writes what `record` kept back, if anything.
    func flush() throws(PullClientError)
}
