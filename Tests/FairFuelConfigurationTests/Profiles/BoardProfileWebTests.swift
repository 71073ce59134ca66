import FairFuelConfiguration
import Testing

@Suite("Board profiles: [web]")
struct BoardProfileWebTests {
    @Test("no [web] table: the built-in defaults, loopback only")
    func absent() throws {
        #expect(try BoardProfile.load(text: "[board]\nram_mb = 512\n").web == nil)
        #expect(BoardProfile.Web().host == "127.0.0.1" && BoardProfile.Web().idleExitSeconds == 0)
    }

    @Test("the keys it sets, the others their defaults, and it renders back")
    func keys() throws {
        let profile = try BoardProfile.load(text: "[web]\nhost = \"0.0.0.0\"\nport = 80\nidle_exit_s = 600\nreceipts_limit_mib = 64\n")
        let web = try #require(profile.web)
        #expect(web.host == "0.0.0.0" && web.port == 80 && web.idleExitSeconds == 600 && web.uploadLimitKiB == 8_192)
        #expect(web.receiptsLimitMiB == 64 && BoardProfile.Web().receiptsLimitMiB == 256)
        #expect(try BoardProfile.load(text: profile.tomlText) == profile)
        #expect(BoardProfile.keys(of: "web") == ["host", "port", "upload_limit_kib", "receipts_limit_mib", "idle_exit_s", "connection_idle_timeout_s", "tls_cert_file", "tls_key_file"])
        #expect(web.connectionIdleTimeoutSeconds == 30, "idle connections are closed by default")
        #expect(web.tlsCertFile == nil && web.tlsKeyFile == nil, "plain HTTP unless a certificate is named")
    }

    @Test("HTTPS: a certificate and its key, both or neither, absolute paths")
    func tls() throws {
        let profile = try BoardProfile.load(text: "[web]\ntls_cert_file = \"/etc/fairfuel/web.pem\"\ntls_key_file = \"/etc/fairfuel/web.key\"\n")
        #expect(profile.web?.tlsCertFile == "/etc/fairfuel/web.pem" && profile.web?.tlsKeyFile == "/etc/fairfuel/web.key")
        #expect(try BoardProfile.load(text: profile.tomlText) == profile)
        for text in ["[web]\ntls_cert_file = \"/etc/fairfuel/web.pem\"\n", "[web]\ntls_key_file = \"/etc/fairfuel/web.key\"\n"] {
            #expect(throws: ProfileError.self, "\(text)") { try BoardProfile.load(text: text) }
        }
        do {
            _ = try BoardProfile.load(text: "[web]\ntls_cert_file = \"/etc/fairfuel/web.pem\"\n")
        } catch {
            #expect("\(error)".contains("both or neither"), "\(error)")
        }
        #expect(throws: ProfileError.self) { try BoardProfile.load(text: "[web]\ntls_cert_file = \"web.pem\"\ntls_key_file = \"/k\"\n") }
    }

    @Test("out of range or of the wrong kind: refused with its line")
    func refused() throws {
        for text in ["[web]\nport = 0\n", "[web]\nupload_limit_kib = 10\n", "[web]\nreceipts_limit_mib = 0\n", "[web]\nidle_exit_s = -1\n", "[web]\nconnection_idle_timeout_s = 0\n", "[web]\nhost = \"a b\"\n", "web = 3\n"] {
            #expect(throws: ProfileError.self, "\(text)") { try BoardProfile.load(text: text) }
        }
    }
}
