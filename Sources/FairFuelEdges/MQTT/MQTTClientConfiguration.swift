/// The MQTT protocol version spoken to the broker.
public enum MQTTProtocolVersion: Sendable, Equatable {
    case v311
    case v5
}

/// Certificate files for TLS (OpenSSL, through libmosquitto): the CA that signed the
/// broker's certificate, and optionally this car's own certificate and key.
public struct MQTTTLSFiles: Sendable, Equatable {
    public var caFile: String
    public var certFile: String?
    public var keyFile: String?

    public init(caFile: String, certFile: String? = nil, keyFile: String? = nil) {
        self.caFile = caFile
        self.certFile = certFile
        self.keyFile = keyFile
    }
}

/// A user name and password for the broker, read from a file only its owner can read.
///
/// The password never appears in `description`, so the credentials can be logged by mistake safely.
public struct MQTTCredentials: Sendable, Equatable, CustomStringConvertible {
    public var username: String
    public var password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    public var description: String { "MQTTCredentials(username: \(username), password: <redacted>)" }
}

/// The message the broker publishes for this client when it vanishes without a DISCONNECT.
public struct MQTTLastWill: Sendable, Equatable {
    public var topic: String
    public var payload: [UInt8]
    public var retained: Bool

    /// The retained `offline` of a status topic.
    public static func offline(topic: String) -> MQTTLastWill {
        MQTTLastWill(topic: topic, payload: Array("offline".utf8), retained: true)
    }

    public init(topic: String, payload: [UInt8], retained: Bool) {
        self.topic = topic
        self.payload = payload
        self.retained = retained
    }
}

/// Everything `MQTTClient` needs to reach a broker; times in milliseconds and seconds as named.
public struct MQTTClientConfiguration: Sendable, Equatable {
    public var host: String
    public var port: Int
    /// Unique per car: a broker drops the older of two connections with the same id.
    public var clientID: String
    public var protocolVersion: MQTTProtocolVersion
    /// The longest silence before the client pings (and the broker's grace is 1.5 times this).
    public var keepAliveSeconds: Int
    /// The first retry's delay; each failure doubles it up to `backoffMaximumMs`; a CONNACK resets it.
    public var backoffMinimumMs: Int64
    public var backoffMaximumMs: Int64
    /// How much of each wait is drawn per client and attempt, 0 to 100 % (`ReconnectBackoff`): a
    /// fleet that lost its broker together does not come back together.
    public var backoffJitterPercent: Int
    /// A connection attempt with no CONNACK after this long counts as failed.
    public var connectTimeoutMs: Int64
    public var tls: MQTTTLSFiles?
    public var credentials: MQTTCredentials?
    public var lastWill: MQTTLastWill?
    /// QoS 1 messages sent and not yet acknowledged at most; further publishes wait inside libmosquitto.
    public var maximumInflight: Int
    /// false asks the broker to keep this client id's subscriptions and its QoS 1 messages while it is away
    /// (a hub); a car keeps its state in its outbox and connects clean.
    public var cleanSession: Bool

    public init(
        host: String, port: Int, clientID: String, protocolVersion: MQTTProtocolVersion = .v311,
        keepAliveSeconds: Int = 60, backoffMinimumMs: Int64 = 1_000, backoffMaximumMs: Int64 = 300_000,
        backoffJitterPercent: Int = 50,
        connectTimeoutMs: Int64 = 15_000, tls: MQTTTLSFiles? = nil, credentials: MQTTCredentials? = nil,
        lastWill: MQTTLastWill? = nil, maximumInflight: Int = 20, cleanSession: Bool = true
    ) {
        self.host = host
        self.port = port
        self.clientID = clientID
        self.protocolVersion = protocolVersion
        self.keepAliveSeconds = keepAliveSeconds
        self.backoffMinimumMs = backoffMinimumMs
        self.backoffMaximumMs = backoffMaximumMs
        self.backoffJitterPercent = backoffJitterPercent
        self.connectTimeoutMs = connectTimeoutMs
        self.tls = tls
        self.credentials = credentials
        self.lastWill = lastWill
        self.maximumInflight = maximumInflight
        self.cleanSession = cleanSession
    }
}
