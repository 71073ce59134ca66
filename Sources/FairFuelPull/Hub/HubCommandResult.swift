import FairFuelCore
import FairFuelStore

/// A car's answer on `<prefix>/<vehicle>/command/result` (docs/mqtt.md, "Commands"), read once for
/// every keeper of the hub's command log: anything else on that topic answers nothing.
public struct HubCommandResult: Sendable, Equatable {
    public var vehicle: String
    public var id: String
    /// `applied`, `refused` or `already_applied`.
    public var outcome: String
    public var reason: String?

    /// The longest reason kept (a car's reason is a sentence).
    static let maximumReasonLength = 500

    public init?(topic: String, payload: [UInt8]) {
        let levels = topic.split(separator: "/")
        guard levels.count >= 4, levels.suffix(2) == ["command", "result"],
              let json = JSONValue(String(decoding: payload.prefix(16_384), as: UTF8.self)),
              let id = json["id"]?.string, let outcome = json["outcome"]?.string, HubCommandEntry.outcomes.contains(outcome)
        else { return nil }
        vehicle = String(levels[levels.count - 3])
        self.id = id
        self.outcome = outcome
        reason = json["reason"]?.string.map { String($0.prefix(Self.maximumReasonLength)) }.flatMap { $0.isEmpty ? nil : $0 }
    }
}
