extension BoardProfile {
    /// `[web]`: the defaults of `fairfuel web`, the family's web app (docs/web.md). A profile without
    /// the table serves on loopback only; its command-line options win over these.
    public struct Web: Sendable, Equatable {
        /// Where it listens: an address (0.0.0.0 or :: for the home network) and a port.
        public var host = "127.0.0.1"
        public var port = 8080
        /// The largest request taken (a receipt photo and its form), KiB.
        public var uploadLimitKiB = 8_192
        /// The most all receipt photos together may take in the store, MiB: a new one past it is
        /// refused (a family user removes old refuels' photos by removing the refuels, or retention
        /// drops the oldest photos first when the store nears its disk budget). 256 MiB is an
        /// eighth of the default 2 GiB store budget on an SD card.
        public var receiptsLimitMiB = 256
        /// Seconds without a request after which it exits (systemd starts it again on demand); 0: never.
        public var idleExitSeconds = 0
        /// Seconds a connection may stay idle (or a request stall) before the app closes it.
        public var connectionIdleTimeoutSeconds = 30
        /// HTTPS: the server's certificate chain and its private key (PEM files, absolute paths);
        /// both or neither. Without them the app speaks plain HTTP (loopback, or behind a TLS proxy).
        public var tlsCertFile: String?
        public var tlsKeyFile: String?

        public init() {}
    }
}

extension BoardProfile.Web {
    static let section = "web"

    static let schema = ProfileSchema<BoardProfile.Web>(sections: [
        .init(
            section,
            [
                .string("host", \.host, .host),
                .integer("port", \.port, 1...65_535, "port"),
                .integer("upload_limit_kib", \.uploadLimitKiB, 64...65_536, "KiB"),
                .integer("receipts_limit_mib", \.receiptsLimitMiB, 1...16_384, "MiB"),
                .integer("idle_exit_s", \.idleExitSeconds, 0...86_400, "seconds"),
                .integer("connection_idle_timeout_s", \.connectionIdleTimeoutSeconds, 1...3_600, "seconds"),
                .optionalString("tls_cert_file", \.tlsCertFile, .absolutePath),
                .optionalString("tls_key_file", \.tlsKeyFile, .absolutePath),
            ]),
    ])

    /// Reads `[web]` (the whole `table`); keys it leaves out keep their defaults.
    static func load(table: TOMLTable, line: Int) throws(ProfileError) -> BoardProfile.Web {
        var root = TOMLTable()
        root.insert(section, .table(table), line: line)
        var web = BoardProfile.Web()
        _ = try schema.decode(root, into: &web)
        guard (web.tlsCertFile == nil) == (web.tlsKeyFile == nil) else {
            throw .outOfRange(
                line: line, key: "web.tls_cert_file", value: web.tlsCertFile ?? "(none)",
                allowed: "tls_cert_file and tls_key_file go together: both or neither")
        }
        return web
    }
}
