import FairFuelCore
import FairFuelStore

/// The commands a hub sent its cars and what each car answered (`DIR/.fairfuel-hub-commands.tsv`),
/// for a hub kept in a directory (one kept in a database has `HubDatabaseCommandLog`): a command is
/// pending from `hub command` until the car's answer on `<prefix>/<vehicle>/command/result` reaches
/// the hub (`hub command` itself, or the collecting hub, which subscribes to the answers). Only
/// answers to commands this hub sent are kept.
public final class HubCommandLog: HubCommandKeeping {
    public static let fileName = HubCollector.markerName + "-commands.tsv"
    public static let maximumKept = 1_000
    /// The state of a command written as sent and then never taken by the broker: not listed.
    static let withdrawnState = "withdrawn"

    public typealias Command = HubCommandEntry

    private let log: HubRecordLog
    private let directory: String
    /// The ids sent and not yet answered, by vehicle and id: the answers worth keeping.
    private var pending: Set<String>

    public init(directory: String) throws(PullClientError) {
        try PullFiles.makeDirectory(directory)
        self.directory = directory
        log = try HubRecordLog(path: directory + "/" + Self.fileName, limit: Self.maximumKept)
        pending = Set(try Self.read(directory: directory).filter { $0.state == "pending" }.map { $0.vehicle + "/" + $0.id })
    }

    public func sent(vehicle: String, id: String, name: String, atUTCMs: Int64) throws(PullClientError) {
        try log.append([String(atUTCMs), vehicle, id, "pending", name])
        pending.insert(vehicle + "/" + id)
    }

    public func withdrawn(vehicle: String, id: String) throws(PullClientError) {
        guard pending.remove(vehicle + "/" + id) != nil else { return }
        try log.append(["0", vehicle, id, Self.withdrawnState, ""])
    }

    @discardableResult
    public func answer(_ result: HubCommandResult, atUTCMs: Int64) throws(PullClientError) -> Bool {
        guard pending.remove(result.vehicle + "/" + result.id) != nil else { return false }
        try log.append([String(atUTCMs), result.vehicle, result.id, result.outcome, result.reason ?? ""])
        return true
    }

    public func pendingCount(vehicle: String) throws(PullClientError) -> Int {
        pending.reduce(0) { $0 + ($1.hasPrefix(vehicle + "/") ? 1 : 0) }
    }

    public func commands(vehicle: String?) throws(PullClientError) -> [Command] {
        try Self.read(directory: directory).filter { vehicle == nil || $0.vehicle == vehicle }
    }

    /// Every command of the log, oldest first, each with its latest state.
    public static func read(directory: String) throws(PullClientError) -> [Command] {
        var commands: [Command?] = []
        var index: [String: Int] = [:]
        for f in try HubRecordLog.read(directory + "/" + fileName, limit: 2 * maximumKept) where f.count >= 5 {
            guard let at = Int64(f[0]) else { continue }
            let key = f[1] + "/" + f[2]
            if f[3] == "pending" {
                index[key] = commands.count
                commands.append(Command(vehicle: f[1], id: f[2], name: f[4], sentUTCMs: at, state: "pending", reason: nil))
            } else if let position = index[key] {
                guard f[3] != withdrawnState else {
                    commands[position] = nil
                    index[key] = nil
                    continue
                }
                commands[position]?.state = f[3]
                commands[position]?.reason = f[4].isEmpty ? nil : f[4]
            }
        }
        return commands.compactMap { $0 }
    }
}
