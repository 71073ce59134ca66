import FairFuelCore

/// The commands a hub sent its cars and what each car answered (`DIR/.fairfuel-hub-commands.tsv`),
/// for `fairfuel hub status`: a command is pending from `hub command` until the car's answer on
/// `<prefix>/<vehicle>/command/result` reaches the hub (`hub command` itself, or the collecting
/// hub, which subscribes to the answers). Only answers to commands this hub sent are kept.
public final class HubCommandLog {
    public static let fileName = HubCollector.markerName + "-commands.tsv"
    public static let maximumKept = 1_000

    public struct Command: Sendable, Equatable {
        public var vehicle: String
        public var id: String
        public var name: String
        public var sentUTCMs: Int64
        /// `pending`, or the car's outcome: `applied`, `refused`, `already_applied`.
        public var state: String
        public var reason: String?
    }

    private let log: HubRecordLog
    /// The ids sent and not yet answered, by vehicle and id: the answers worth keeping.
    private var pending: Set<String>

    public init(directory: String) throws(PullClientError) {
        try PullFiles.makeDirectory(directory)
        log = try HubRecordLog(path: directory + "/" + Self.fileName, limit: Self.maximumKept)
        pending = Set(try Self.read(directory: directory).filter { $0.state == "pending" }.map { $0.vehicle + "/" + $0.id })
    }

    public func sent(vehicle: String, id: String, name: String, atUTCMs: Int64) throws(PullClientError) {
        try log.append([String(atUTCMs), vehicle, id, "pending", name])
        pending.insert(vehicle + "/" + id)
    }

    /// Takes a message from `<prefix>/<vehicle>/command/result`; true when it answered a pending command.
    @discardableResult
    public func answer(topic: String, payload: [UInt8], atUTCMs: Int64) throws(PullClientError) -> Bool {
        let levels = topic.split(separator: "/")
        guard levels.count >= 4, levels.suffix(2) == ["command", "result"],
              let json = JSONValue(String(decoding: payload.prefix(16_384), as: UTF8.self)),
              let id = json["id"]?.string, let outcome = json["outcome"]?.string,
              ["applied", "refused", "already_applied"].contains(outcome)
        else { return false }
        let vehicle = String(levels[levels.count - 3])
        guard pending.remove(vehicle + "/" + id) != nil else { return false }
        try log.append([String(atUTCMs), vehicle, id, outcome, String((json["reason"]?.string ?? "").prefix(500))])
        return true
    }

    /// Every command of the log, oldest first, each with its latest state.
    public static func read(directory: String) throws(PullClientError) -> [Command] {
        var commands: [Command] = []
        var index: [String: Int] = [:]
        for f in try HubRecordLog.read(directory + "/" + fileName, limit: 2 * maximumKept) where f.count >= 5 {
            guard let at = Int64(f[0]) else { continue }
            let key = f[1] + "/" + f[2]
            if f[3] == "pending" {
                index[key] = commands.count
                commands.append(Command(vehicle: f[1], id: f[2], name: f[4], sentUTCMs: at, state: "pending", reason: nil))
            } else if let position = index[key] {
                commands[position].state = f[3]
                commands[position].reason = f[4].isEmpty ? nil : f[4]
            }
        }
        return commands
    }
}
