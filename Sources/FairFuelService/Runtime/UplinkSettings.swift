import FairFuelConfiguration
import FairFuelEdges
import FairFuelStore

extension BoardProfile.Uplink {
    /// What the store queues for this uplink (topics, budget, positions).
    public var outbox: OutboxUplink {
        OutboxUplink(
            topicPrefix: topicPrefix, budget: OutboxBudget(maximumMessages: outboxMaxMessages, maximumBytes: outboxMaxBytes),
            positions: OutboxPositions(rawValue: positions.rawValue) ?? .none)
    }

    /// The client's configuration; `vehicleID` names the status topic and the default client id.
    public func clientConfiguration(vehicleID: String, credentials: MQTTCredentials?) -> MQTTClientConfiguration {
        let endpoint = endpoint
        return MQTTClientConfiguration(
            host: endpoint.host, port: endpoint.port, clientID: clientID.isEmpty ? "fairfuel-\(vehicleID)" : clientID,
            protocolVersion: protocolVersion == .v5 ? .v5 : .v311, keepAliveSeconds: keepaliveSeconds,
            backoffMinimumMs: Int64(backoffMinMs), backoffMaximumMs: Int64(backoffMaxMs),
            backoffJitterPercent: backoffJitterPercent,
            tls: endpoint.tls ? caFile.map { MQTTTLSFiles(caFile: $0, certFile: certFile, keyFile: keyFile) } : nil,
            credentials: credentials, lastWill: .offline(topic: statusTopic(vehicleID: vehicleID)))
    }

    /// `<prefix>/<vehicle>/status`: retained `online`, and the last will `offline`.
    public func statusTopic(vehicleID: String) -> String { "\(topicPrefix)/\(vehicleID)/status" }
}
