import ArgumentParser
import FairFuelConfiguration
import FairFuelCore
import FairFuelEdges
import FairFuelPull
import FairFuelReports
import FairFuelStore
import FairFuelWeb

/// `fairfuel web`: the family's web app on the car's store, and who may log in to it.
struct WebCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web", abstract: "Serve the family's web app (phone-first pages and /api/v1) on the store, or manage its users.",
        discussion: """
            `fairfuel web --db STORE --listen HOST:PORT` serves in the foreground until SIGTERM or SIGINT (exit 0). \
            Nobody can log in until `fairfuel web user add NAME --role family` has given them a password (read from standard input).
            """,
        subcommands: [Serve.self, User.self], defaultSubcommand: Serve.self)

    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Serve the web app in the foreground (the default).")
        @Option(help: "Where to listen, HOST:PORT ([::1]:8080 for IPv6; port 0: any free one, printed); default: the board profile's [web], else 127.0.0.1:8080.")
        var listen: String?
        @Option(name: .customLong("upload-limit-kib"), help: "The largest request taken (a receipt photo), KiB; default: [web] upload_limit_kib, else 8192.")
        var uploadLimitKiB: Int?
        @Option(name: .customLong("idle-exit-s"), help: "Exit after this many seconds without a request (0: never); default: [web] idle_exit_s, else 0.")
        var idleExitSeconds: Int?
        @Flag(help: "Mark cookies Secure: the app is served behind a TLS proxy (with --tls-cert they are anyway).")
        var secureCookies = false
        @Option(name: .customLong("tls-cert"), help: "Serve HTTPS with this PEM certificate chain (with --tls-key); default: [web] tls_cert_file.")
        var tlsCertificateFile: String?
        @Option(name: .customLong("tls-key"), help: "The PEM private key of --tls-cert; default: [web] tls_key_file.")
        var tlsKeyFile: String?
        @Option(name: .customLong("hub-db"), help: "Serve the family view of every car from this hub database (`fairfuel hub --db`: a file or a postgres:// URL; or the hub's directory for its own), read-only unless --mqtt-url and --secrets are given; --db is then the file of web users.")
        var hubDatabase: String?
        @Option(name: .customLong("mqtt-url"), help: "With --hub-db: send family users' corrections to the cars through this broker (mqtt://HOST[:PORT] or mqtts://), as `fairfuel hub command` does.")
        var mqttURL: String?
        @Option(help: "With --mqtt-url: a directory of the cars' pairing secrets, one file per car named <vehicle-id>.secret.")
        var secrets: String?
        @Option(help: "With --mqtt-url: the cars' topic prefix.")
        var prefix = "fairfuel"
        @Option(help: "With --mqtt-url: a file of two lines, the broker's user name and password, that only its owner may read.")
        var credentials: String?
        @Option(name: .customLong("ca-file"), help: "With an mqtts:// --mqtt-url: the broker's CA certificate.")
        var caFile: String?
        @OptionGroup var store: StoreOptions

        func validate() throws {
            if let listen { do { _ = try WebConfiguration.listenAddress(listen) } catch { throw ValidationError("\(error)") } }
            if let uploadLimitKiB, !(64...65_536).contains(uploadLimitKiB) { throw ValidationError("--upload-limit-kib must be 64 to 65536") }
            if let idleExitSeconds, !(0...86_400).contains(idleExitSeconds) { throw ValidationError("--idle-exit-s must be 0 to 86400") }
            if (tlsCertificateFile == nil) != (tlsKeyFile == nil) { throw ValidationError("--tls-cert and --tls-key go together") }
            if (mqttURL == nil) != (secrets == nil) { throw ValidationError("--mqtt-url and --secrets go together: the broker and the secrets that sign the commands") }
            if let mqttURL {
                guard hubDatabase != nil else { throw ValidationError("--mqtt-url sends corrections from the hub's app: give --hub-db too") }
                if let problem = UplinkEndpoint.problem(with: mqttURL) { throw ValidationError("--mqtt-url \(mqttURL): \(problem)") }
                if let problem = HubBroker.prefixProblem(prefix) { throw ValidationError("--prefix \(prefix): \(problem)") }
                if UplinkEndpoint.parse(mqttURL)?.tls == true, caFile == nil { throw ValidationError("mqtts:// needs --ca-file") }
            }
        }

        /// The broker and secrets that corrections go down with, when given.
        func corrections() throws(WebError) -> HubCorrections? {
            guard let mqttURL, let secrets, let endpoint = UplinkEndpoint.parse(mqttURL) else { return nil }
            let broker = HubBroker(
                url: mqttURL, host: endpoint.host, port: endpoint.port, tls: endpoint.tls, prefix: prefix, caFile: caFile, credentialsFile: credentials)
            return try HubCorrections(broker: broker, secretsDirectory: secrets)
        }

        /// The certificate and key the options or the profile name, read now: a missing or unreadable
        /// file is a clear error before anything listens.
        func tls(_ web: BoardProfile.Web) throws -> WebTLS? {
            guard let certificate = tlsCertificateFile ?? web.tlsCertFile, let key = tlsKeyFile ?? web.tlsKeyFile else { return nil }
            func read(_ path: String, _ what: String) throws -> [UInt8] {
                switch TextFileReader.readAll(path: path, maximumBytes: 1 << 20) {
                case let .success(bytes): return bytes
                case let .failure(error): throw UserFacingError("cannot read the TLS \(what) \(path): \(error)")
                }
            }
            return WebTLS(certificateChainPEM: try read(certificate, "certificate"), privateKeyPEM: try read(key, "key"))
        }

        func run() throws {
            try store.requireExisting()
            // The options win over the board profile's [web], which wins over the built-in defaults.
            let web = try store.board(for: "its [web]").web ?? BoardProfile.Web()
            let (host, port) = try listen.map { text throws in try WebConfiguration.listenAddress(text) } ?? (web.host, web.port)
            let control = store.control
            let storePath = try store.resolvedPath
            let configuration = WebConfiguration(
                storePath: storePath, host: host, port: port, secureCookies: secureCookies,
                uploadLimitBytes: (uploadLimitKiB ?? web.uploadLimitKiB) * 1024, receiptsLimitBytes: Int64(web.receiptsLimitMiB) << 20,
                connectionIdleTimeoutSeconds: web.connectionIdleTimeoutSeconds,
                units: { DisplayUnits(vehicle: $0) }, nowUTCMs: { WallClock.utcMilliseconds() },
                afterBookChange: { control.tellService(quietly: true) }, uplink: try store.uplinkOfBoard()?.outbox,
                askService: { request, seconds in
                    do { return .answered(try control.exchange(request, seconds: seconds)) } catch { return .notRunning("\(error)") }
                }, tls: try tls(web))
            let app: WebApp
            let hub: HubFamily?
            do {
                // A hub's directory means its database, as for `fairfuel family DIR`.
                hub = try hubDatabase.map { path throws(WebError) in
                    try HubFamily(
                        path: HubDirectoryDatabase.resolve(path), corrections: try corrections(),
                        open: { argument throws(StoreError) in try HubDatabases.openForViews(argument) })
                }
                app = try WebApp(configuration: configuration, hub: hub)
            } catch {
                throw UserFacingError("\(error)")
            }
            try WebServer.runBlocking(app, idleExitSeconds: idleExitSeconds ?? web.idleExitSeconds) { port in
                let shown = host.contains(":") ? "[\(host)]" : host
                print("fairfuel web: serving \(hub?.location ?? storePath) on \(configuration.tls == nil ? "http" : "https")://\(shown):\(port)/")
                try? StandardStreams.flush()
                // Under systemd (Type=notify): ready once it listens, so the socket's proxy connects only then.
                let notifier = SystemdNotifier.fromProcessEnvironment()
                if notifier.isEnabled { try? notifier.ready() }
            }
            print("fairfuel web: stopped")
        }
    }

    struct User: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Who may log in: add (password on standard input), remove, list.", subcommands: [Add.self, Remove.self, List.self])

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Add a user; the password is read from standard input (one line).")
            @Argument(help: "The user's name (what they type to log in).") var name: String
            @Option(help: "family (everything: settle, delete, drivers) or driver (sees the book, enters refuels, names their own trips).")
            var role: String
            @Flag(help: "Make the users file when it does not exist yet (a hub's web users, beside its --hub-db); without it a missing --db is an error, as for every command.")
            var create = false
            @OptionGroup var store: StoreOptions

            func run() throws {
                guard let role = WebUser.Role(rawValue: role) else { throw ValidationError("--role must be family or driver") }
                guard let password = readLine(strippingNewline: true) else { throw UserFacingError("give the password on standard input (one line)") }
                let hash: String
                do { hash = try WebPassword.hash(password) } catch { throw UserFacingError("\(error)") }
                // A hub's users live in a small store file of their own, made by the first `user add --create`;
                // on a car, a mistyped --db stays an error instead of a new empty store.
                let db = try store.open(creating: create)
                do {
                    let user = try db.addWebUser(name: name, role: role, passwordHash: hash, atUTCMs: WallClock.utcMilliseconds())
                    print("web user \(user.name) added (\(user.role.rawValue))")
                } catch {
                    throw UserFacingError("\(error)")
                }
            }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Remove a user (their open sessions end at their next request).")
            @Argument(help: "The user's name.") var name: String
            @OptionGroup var store: StoreOptions

            func run() throws {
                let db = try store.open()
                do { print("web user \(try db.removeWebUser(named: name).name) removed") } catch { throw UserFacingError("\(error)") }
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List the users and their roles.")
            @Flag(help: "Print a JSON array.") var json = false
            @OptionGroup var store: StoreOptions

            func run() throws {
                let users = try store.openReadOnly().webUsers()
                if json {
                    print(JSONLine.array(users.map { user in
                        var j = JSONLine()
                        j.add("name", user.name)
                        j.add("role", user.role.rawValue)
                        j.add("created_utc", TripText.utc(user.createdUTCMs))
                        return j.string
                    }))
                    return
                }
                if users.isEmpty { print("no web users: add one with `fairfuel web user add NAME --role family`") }
                for user in users { print("\(user.name)  \(user.role.rawValue)") }
            }
        }
    }
}
