import FairFuelCore
import FairFuelStore

/// The messages a hub kept in a directory refused and why (`DIR/.fairfuel-hub-refused.tsv`), for
/// `fairfuel hub status`: one record line each (received UTC ms, vehicle id, topic kind, message
/// id, reason), the newest `maximumKept` only, so that a car or an intruder flooding bad messages
/// cannot fill the disk.
public final class HubRefusals: HubRefusalKeeping {
    public static let fileName = HubCollector.markerName + "-refused.tsv"
    public static let maximumKept = HubRefusalSQL.maximumKept

    public typealias Refusal = HubRefusal

    let log: HubRecordLog

    init(path: String, limit: Int = HubRefusals.maximumKept) throws(PullClientError) {
        // Not synced line by line: a flood of bad messages would otherwise cost a sync each and
        // slow the hub's ingest of good ones; losing the last refusals in a power cut loses no record.
        log = try HubRecordLog(path: path, limit: limit, durable: false)
    }

    public func record(vehicle: String, kind: String, messageID: Int64?, reason: String, receivedUTCMs: Int64) throws(PullClientError) {
        try log.append([String(receivedUTCMs), vehicle, kind, messageID.map(String.init) ?? "", reason])
    }

    public func flush() throws(PullClientError) {}

    /// What the hub in `directory` refused, oldest first (the newest `maximumKept`).
    public static func read(directory: String) throws(PullClientError) -> [Refusal] {
        try HubRecordLog.read(directory + "/" + fileName, limit: maximumKept).compactMap { f in
            guard f.count >= 5, let at = Int64(f[0]) else { return nil }
            return Refusal(receivedUTCMs: at, vehicle: f[1], kind: f[2], messageID: Int64(f[3]), reason: f[4])
        }
    }
}
