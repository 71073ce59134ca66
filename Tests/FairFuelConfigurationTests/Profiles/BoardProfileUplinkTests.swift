import FairFuelConfiguration
import Testing

@Suite("Board profiles: [uplink]")
struct BoardProfileUplinkTests {
    private func load(_ uplink: String) throws -> BoardProfile {
        try BoardProfile.load(text: "[board]\nram_mb = 512\n\n[uplink]\n" + uplink)
    }

    private func error(_ uplink: String) throws -> ProfileError {
        try #require(throws: ProfileError.self) { try load(uplink) }
    }

    @Test("no [uplink] table: no uplink, and the shipped profiles have none")
    func absent() throws {
        #expect(BoardProfile.piZero2W.uplink == nil)
        #expect(try BoardProfile.load(text: "[board]\nram_mb = 512\n").uplink == nil)
        #expect(!BoardProfile.piZero2W.tomlText.contains("[uplink]"))
    }

    @Test("a url alone: every other key takes its default (positions none)")
    func defaults() throws {
        let uplink = try #require(try load("url = \"mqtt://broker.home.arpa\"\n").uplink)
        #expect(uplink.endpoint == UplinkEndpoint(tls: false, host: "broker.home.arpa", port: 1883))
        #expect(uplink.clientID == "")
        #expect(uplink.topicPrefix == "fairfuel")
        #expect(uplink.positions == .none)
        #expect(uplink.homeAssistantPrefix == "homeassistant")
        #expect(uplink.protocolVersion == .v311)
        #expect(uplink.keepaliveSeconds == 60)
        #expect(uplink.caFile == nil && uplink.credentials == nil)
    }

    @Test("every key, read and rendered back equal")
    func everyKey() throws {
        let profile = try load("""
            url = "mqtts://[::1]:8884"
            client_id = "fairfuel-golf"
            topic_prefix = "home/cars"
            ca_file = "/etc/fairfuel/mqtt-ca.crt"
            cert_file = "/etc/fairfuel/car.crt"
            key_file = "/etc/fairfuel/car.key"
            credentials = "mqtt"
            keepalive_s = 30
            protocol = "5"
            backoff_min_ms = 500
            backoff_max_ms = 60000
            backoff_jitter_percent = 25
            publish_per_s = 20
            outbox_max_messages = 100
            outbox_max_bytes = 1048576
            positions = "summary"
            homeassistant_prefix = "ha/discovery"

            """)
        let uplink = try #require(profile.uplink)
        #expect(uplink.endpoint == UplinkEndpoint(tls: true, host: "::1", port: 8884))
        #expect(uplink.clientID == "fairfuel-golf" && uplink.topicPrefix == "home/cars")
        #expect(uplink.certFile == "/etc/fairfuel/car.crt" && uplink.keyFile == "/etc/fairfuel/car.key")
        #expect(uplink.credentials == "mqtt" && uplink.protocolVersion == .v5 && uplink.keepaliveSeconds == 30)
        #expect(uplink.backoffMinMs == 500 && uplink.backoffMaxMs == 60_000 && uplink.backoffJitterPercent == 25)
        #expect(uplink.publishPerSecond == 20 && uplink.outboxMaxMessages == 100 && uplink.outboxMaxBytes == 1_048_576)
        #expect(uplink.positions == .summary && uplink.homeAssistantPrefix == "ha/discovery")
        try profile.validate()
        #expect(try BoardProfile.load(text: profile.tomlText) == profile)
        #expect(BoardProfile.keys(of: "uplink").first == "url")
    }

    @Test("bad values are refused with their line and what is allowed", arguments: [
        ("url = \"http://broker\"\n", "line 5: uplink.url = \"http://broker\" is not allowed: it must be mqtt://HOST[:PORT] or mqtts://HOST[:PORT] (TLS)"),
        ("url = \"mqtt://broker:0\"\n", "line 5: uplink.url = \"mqtt://broker:0\" is not allowed: the port must be 1...65535"),
        ("url = \"mqtt://bro ker\"\n", "line 5: uplink.url = \"mqtt://bro ker\" is not allowed: the host: it must be a host name or an IP address"),
        ("url = \"mqtt://b\"\npositions = \"all\"\n", "line 6: uplink.positions = \"all\" is not allowed: it must be one of \"none\", \"summary\", \"track\""),
        ("url = \"mqtt://b\"\nprotocol = \"3\"\n", "line 6: uplink.protocol = \"3\" is not allowed: it must be one of \"3.1.1\", \"5\""),
        ("url = \"mqtt://b\"\nprotocol = 5\n", "line 6: uplink.protocol must be a string, not an integer"),
        ("url = \"mqtt://b\"\ntopic_prefix = \"cars/#\"\n", "line 6: uplink.topic_prefix = \"cars/#\" is not allowed: it must be topic levels like fairfuel or home/cars: no +, #, spaces or empty level"),
        ("url = \"mqtt://b\"\ncredentials = \"../mqtt\"\n", "line 6: uplink.credentials = \"../mqtt\" is not allowed: it must be a LoadCredential= name (a file name, no /)"),
        ("url = \"mqtt://b\"\nkeepalive_s = 1\n", "line 6: uplink.keepalive_s = 1 is not allowed: it must be 5...65535 (seconds)"),
        ("url = \"mqtt://b\"\nbackoff_jitter_percent = 101\n", "line 6: uplink.backoff_jitter_percent = 101 is not allowed: it must be 0...100 (percent)"),
        ("url = \"mqtt://b\"\npublish_per_s = 0\n", "line 6: uplink.publish_per_s = 0 is not allowed: it must be 1...1000 (messages per second)"),
        ("url = \"mqtt://b\"\nca_file = \"/etc/ca.crt\"\n", "line 6: uplink.ca_file = \"/etc/ca.crt\" is not allowed: certificate files need TLS: an mqtts:// url"),
        ("url = \"mqtts://b\"\n", "line 5: uplink.url = \"mqtts://b\" is not allowed: mqtts:// needs ca_file, the CA that signed the broker's certificate"),
        ("url = \"mqtts://b\"\nca_file = \"/ca\"\ncert_file = \"/c\"\n", "line 7: uplink.cert_file = \"/c\" is not allowed: cert_file and key_file go together"),
        ("url = \"mqtt://b\"\nbackoff_min_ms = 5000\nbackoff_max_ms = 1000\n", "line 7: uplink.backoff_max_ms = 1000 is not allowed: it must be at least uplink.backoff_min_ms (5000)"),
        ("client_id = \"golf\"\n", "missing key 'url' in [uplink]: it has no default, so the profile must set it"),
        ("url = \"mqtt://b\"\npassword = \"x\"\n", "line 6: unknown key 'password' in [uplink]; the keys of [uplink] are url, client_id, topic_prefix, ca_file, cert_file, key_file, credentials, keepalive_s, protocol, backoff_min_ms, backoff_max_ms, backoff_jitter_percent, publish_per_s, outbox_max_messages, outbox_max_bytes, positions, homeassistant_prefix"),
        ("url = \"mqtt://b\"\nhomeassistant_prefix = \"home assistant\"\n", "line 6: uplink.homeassistant_prefix = \"home assistant\" is not allowed: it must be topic levels like fairfuel or home/cars: no +, #, spaces or empty level (or empty: no Home Assistant discovery)"),
    ])
    func badValues(uplink: String, message: String) throws {
        #expect(try error(uplink).description == message)
    }

    @Test("an empty homeassistant_prefix turns discovery off, and is rendered back")
    func discoveryOff() throws {
        let profile = try load("url = \"mqtt://b\"\nhomeassistant_prefix = \"\"\n")
        #expect(profile.uplink?.homeAssistantPrefix == "")
        #expect(try BoardProfile.load(text: profile.tomlText) == profile)
    }

    @Test("[uplink] must be a table")
    func notATable() throws {
        let error = try #require(throws: ProfileError.self) { try BoardProfile.load(text: "uplink = \"mqtt://b\"\n") }
        #expect(error.description.contains("uplink"))
    }
}
