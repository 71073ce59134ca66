extension BoardProfile {
    /// `[uplink]`: the MQTT broker the car publishes its trips, refuels and splits to (docs/mqtt.md).
    /// A profile without the table has no uplink at all.
    public struct Uplink: Sendable, Equatable {
        /// `mqtt://HOST[:PORT]` (plain TCP, port 1883) or `mqtts://HOST[:PORT]` (TLS, port 8883).
        public var url: String
        /// The broker's client id; empty: `fairfuel-<vehicle uplink id>`, unique per car.
        public var clientID = ""
        /// Topics are `<topicPrefix>/<vehicle uplink id>/trip|refuel|split|status`.
        public var topicPrefix = "fairfuel"
        /// The CA that signed the broker's certificate (mqtts:// only).
        public var caFile: String?
        /// This car's own certificate and key, for brokers that ask for one (mqtts:// only, both or neither).
        public var certFile: String?
        public var keyFile: String?
        /// A systemd `LoadCredential=` name: the shell reads `$CREDENTIALS_DIRECTORY/<name>`
        /// (user name line, password line); nil connects without a user name.
        public var credentials: String?
        public var keepaliveSeconds = 60
        public var protocolVersion: UplinkProtocol = .v311
        /// First wait before reconnecting, doubled after each failure up to `backoffMaxMs`.
        public var backoffMinMs = 1_000
        public var backoffMaxMs = 300_000
        /// How much of each wait is drawn per car and attempt, percent: a fleet that lost the
        /// broker together does not hammer it together when it returns.
        public var backoffJitterPercent = 50
        /// Most outbox messages published per second (a backlog after days offline goes out at this rate).
        public var publishPerSecond = 10
        /// The outbox's budget: past it the oldest record messages are dropped and counted.
        public var outboxMaxMessages = 5_000
        public var outboxMaxBytes: Int64 = 4_194_304
        /// Which positions leave the car; none by default.
        public var positions: UplinkPositions = .none
        /// Home Assistant's MQTT discovery prefix; empty: no discovery messages.
        public var homeAssistantPrefix = "homeassistant"

        public init(url: String) { self.url = url }

        /// The broker's address as `url` gives it (checked when the profile is loaded).
        public var endpoint: UplinkEndpoint { UplinkEndpoint.parse(url) ?? UplinkEndpoint(tls: false, host: "", port: 0) }
    }

    /// The MQTT protocol version spoken to the broker.
    public enum UplinkProtocol: String, Sendable, CaseIterable {
        case v311 = "3.1.1"
        case v5 = "5"
    }

    /// Positions in the uplink's messages: none, a trip's start and end, or its kept track.
    public enum UplinkPositions: String, Sendable, CaseIterable {
        case none
        case summary
        case track
    }
}

/// A broker address from `mqtt://HOST[:PORT]` or `mqtts://HOST[:PORT]`.
public struct UplinkEndpoint: Sendable, Equatable {
    public var tls: Bool
    public var host: String
    public var port: Int

    public init(tls: Bool, host: String, port: Int) {
        self.tls = tls
        self.host = host
        self.port = port
    }

    /// Nil when `url` is not `mqtt[s]://HOST[:PORT]` (`problem(with:)` says why).
    public static func parse(_ url: String) -> UplinkEndpoint? {
        problem(with: url) == nil ? split(url) : nil
    }

    /// Why `url` is refused, or nil.
    public static func problem(with url: String) -> String? {
        guard let endpoint = split(url) else {
            return "it must be mqtt://HOST[:PORT] or mqtts://HOST[:PORT] (TLS)"
        }
        if let problem = ProfileStringRule.host.problem(with: endpoint.host) { return "the host: " + problem }
        guard (1...65535).contains(endpoint.port) else { return "the port must be 1...65535" }
        return nil
    }

    private static func split(_ url: String) -> UplinkEndpoint? {
        let tls: Bool
        let rest: Substring
        if url.hasPrefix("mqtts://") {
            tls = true
            rest = url.dropFirst(8)
        } else if url.hasPrefix("mqtt://") {
            tls = false
            rest = url.dropFirst(7)
        } else {
            return nil
        }
        let hostAndPort = rest.hasSuffix("/") ? rest.dropLast() : rest
        guard !hostAndPort.isEmpty, !hostAndPort.contains("/"), !hostAndPort.contains("@") else { return nil }
        var host = hostAndPort
        var port = tls ? 8883 : 1883
        if hostAndPort.hasPrefix("[") {
            // [IPv6]:port
            guard let close = hostAndPort.firstIndex(of: "]") else { return nil }
            host = hostAndPort[hostAndPort.index(after: hostAndPort.startIndex)..<close]
            let after = hostAndPort[hostAndPort.index(after: close)...]
            if !after.isEmpty {
                guard after.first == ":", let number = Int(after.dropFirst()) else { return nil }
                port = number
            }
        } else if let colon = hostAndPort.lastIndex(of: ":") {
            guard let number = Int(hostAndPort[hostAndPort.index(after: colon)...]) else { return nil }
            host = hostAndPort[..<colon]
            port = number
        }
        guard !host.isEmpty else { return nil }
        return UplinkEndpoint(tls: tls, host: String(host), port: port)
    }
}

extension BoardProfile.Uplink {
    static let schema = ProfileSchema<BoardProfile.Uplink>(sections: [
        .init(
            "uplink",
            [
                .string("url", \.url, .uplinkURL, required: true),
                .string("client_id", \.clientID, .mqttClientID),
                .string("topic_prefix", \.topicPrefix, .topicPrefix),
                .optionalString("ca_file", \.caFile, .absolutePath),
                .optionalString("cert_file", \.certFile, .absolutePath),
                .optionalString("key_file", \.keyFile, .absolutePath),
                .optionalString("credentials", \.credentials, .credentialName),
                .integer("keepalive_s", \.keepaliveSeconds, 5...65_535, "seconds"),
                .choice("protocol", \.protocolVersion),
                .integer("backoff_min_ms", \.backoffMinMs, 10...600_000, "milliseconds"),
                .integer("backoff_max_ms", \.backoffMaxMs, 10...86_400_000, "milliseconds"),
                .integer("backoff_jitter_percent", \.backoffJitterPercent, 0...100, "percent"),
                .integer("publish_per_s", \.publishPerSecond, 1...1_000, "messages per second"),
                .integer("outbox_max_messages", \.outboxMaxMessages, 10...10_000_000, "messages"),
                .integer("outbox_max_bytes", \.outboxMaxBytes, 65_536...(1 << 34), "bytes"),
                .choice("positions", \.positions),
                .string("homeassistant_prefix", \.homeAssistantPrefix, .discoveryPrefix),
            ]),
    ])

    /// Reads `[uplink]` (the whole `table`); keys it leaves out keep their defaults.
    static func load(table: TOMLTable, line: Int) throws(ProfileError) -> BoardProfile.Uplink {
        var root = TOMLTable()
        root.insert("uplink", .table(table), line: line)
        var uplink = BoardProfile.Uplink(url: "")
        let lines = try schema.decode(root, into: &uplink)
        try uplink.checkTogether(lines: lines)
        return uplink
    }

    private func checkTogether(lines: [String: Int]) throws(ProfileError) {
        let tls = url.hasPrefix("mqtts://")
        for (key, value) in [("ca_file", caFile), ("cert_file", certFile), ("key_file", keyFile)] {
            if let value, !tls {
                throw .outOfRange(
                    line: lines["uplink." + key], key: "uplink." + key, value: TOMLWriter.quoted(value),
                    allowed: "certificate files need TLS: an mqtts:// url")
            }
        }
        if tls && caFile == nil {
            throw .outOfRange(
                line: lines["uplink.url"], key: "uplink.url", value: TOMLWriter.quoted(url),
                allowed: "mqtts:// needs ca_file, the CA that signed the broker's certificate")
        }
        if (certFile == nil) != (keyFile == nil) {
            let key = certFile == nil ? "key_file" : "cert_file"
            throw .outOfRange(
                line: lines["uplink." + key], key: "uplink." + key, value: TOMLWriter.quoted(certFile ?? keyFile ?? ""),
                allowed: "cert_file and key_file go together")
        }
        if backoffMaxMs < backoffMinMs {
            throw .outOfRange(
                line: lines["uplink.backoff_max_ms"] ?? lines["uplink.backoff_min_ms"], key: "uplink.backoff_max_ms",
                value: String(backoffMaxMs), allowed: "it must be at least uplink.backoff_min_ms (\(backoffMinMs))")
        }
    }
}
