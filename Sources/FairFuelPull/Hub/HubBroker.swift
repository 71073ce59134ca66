import FairFuelEdges

/// The broker a hub talks to and how (`fairfuel hub`'s `--url`, `--prefix`, `--ca-file`,
/// `--credentials`, and the hub's web app's `--mqtt-url` ...): the URL is parsed by the caller
/// (`UplinkEndpoint`, the board profile's rule), the client's settings are made here once.
public struct HubBroker: Sendable, Equatable {
    public var url: String
    public var host: String
    public var port: Int
    public var tls: Bool
    /// The cars' topic prefix.
    public var prefix: String
    /// The CA certificate for mqtts://.
    public var caFile: String?
    /// A file of two lines, user name and password, that only its owner may read.
    public var credentialsFile: String?

    public init(url: String, host: String, port: Int, tls: Bool, prefix: String, caFile: String? = nil, credentialsFile: String? = nil) {
        self.url = url
        self.host = host
        self.port = port
        self.tls = tls
        self.prefix = prefix
        self.caFile = caFile
        self.credentialsFile = credentialsFile
    }

    /// What is wrong with a topic prefix, or nil: levels without `+`, `#` or an empty one.
    public static func prefixProblem(_ prefix: String) -> String? {
        guard !prefix.isEmpty, !prefix.contains("+"), !prefix.contains("#"), !prefix.split(separator: "/", omittingEmptySubsequences: false).contains("")
        else { return "topic levels without +, # or an empty level" }
        return nil
    }

    /// The client's configuration; `cleanSession` false keeps the session (and queued messages) at the broker.
    public func clientConfiguration(clientID: String, cleanSession: Bool) throws(MQTTClientError) -> MQTTClientConfiguration {
        var configuration = MQTTClientConfiguration(
            host: host, port: port, clientID: clientID, keepAliveSeconds: 30,
            backoffMinimumMs: 500, backoffMaximumMs: 30_000, connectTimeoutMs: 10_000,
            tls: tls ? caFile.map { MQTTTLSFiles(caFile: $0) } : nil, cleanSession: cleanSession)
        if let credentialsFile { configuration.credentials = try MQTTCredentials.load(path: credentialsFile) }
        return configuration
    }
}
