import ArgumentParser
import FairFuelCore
import FairFuelConfiguration
import FairFuelEdges
import FairFuelPull
import FairFuelStore
import Synchronization

private let hubInterrupted = Atomic<Bool>(false)

/// `fairfuel hub`: collect the cars' messages (the default), send a car a command, show what was refused.
struct HubCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hub",
        abstract: "The family hub: collect the cars' uplink messages (the default), send a car a command, show what was refused.",
        subcommands: [HubCollectCommand.self, HubSendCommand.self, HubStatusCommand.self],
        defaultSubcommand: HubCollectCommand.self)
}

/// The broker a hub talks to, and how: shared by collecting and sending.
struct HubConnectionOptions: ParsableArguments {
    @Option(help: "The broker: mqtt://HOST[:PORT] or mqtts://HOST[:PORT].")
    var url: String
    @Option(help: "The cars' topic prefix.")
    var prefix = "fairfuel"
    @Option(name: .customLong("ca-file"), help: "The CA certificate for mqtts://.")
    var caFile: String?
    @Option(help: "A file of two lines, user name and password, that only its owner may read.")
    var credentials: String?

    func validate() throws {
        if let problem = UplinkEndpoint.problem(with: url) { throw ValidationError("--url \(url): \(problem)") }
        guard !prefix.isEmpty, !prefix.contains("+"), !prefix.contains("#"), !prefix.split(separator: "/", omittingEmptySubsequences: false).contains("")
        else { throw ValidationError("--prefix \(prefix): topic levels without +, # or an empty level") }
        if let endpoint = UplinkEndpoint.parse(url), endpoint.tls, caFile == nil { throw ValidationError("mqtts:// needs --ca-file") }
    }

    /// The client's configuration; `cleanSession` false keeps the session (and queued messages) at the broker.
    func clientConfiguration(clientID: String, cleanSession: Bool) throws -> MQTTClientConfiguration {
        let endpoint = UplinkEndpoint.parse(url)!
        var configuration = MQTTClientConfiguration(
            host: endpoint.host, port: endpoint.port, clientID: clientID, keepAliveSeconds: 30,
            backoffMinimumMs: 500, backoffMaximumMs: 30_000, connectTimeoutMs: 10_000,
            tls: endpoint.tls ? caFile.map { MQTTTLSFiles(caFile: $0) } : nil, cleanSession: cleanSession)
        do {
            if let credentials { configuration.credentials = try MQTTCredentials.load(path: credentials) }
        } catch {
            throw UserFacingError("hub: \(error)")
        }
        return configuration
    }
}

struct HubCollectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "collect",
        abstract: "Collect the cars' uplink messages from an MQTT broker into pull directories for `fairfuel family`.",
        discussion: """
            Subscribes with QoS 1 to <prefix>/+/trip, refuel, split and status, in a persistent session
            (the client id is made once and kept in DIR/.fairfuel-hub), so messages published while the
            hub is away wait in the broker. Each car's latest revision of every record is written to
            DIR/<vehicle id>/ as a USB pull would be; `fairfuel family DIR` reads them all. A resend
            (same revision) changes nothing, a correction replaces, a deletion removes. A message that
            fails the payload's checks is refused and kept with its reason (`fairfuel hub status DIR`).
            """)

    @OptionGroup var connection: HubConnectionOptions
    @Option(help: "Where the cars' pull directories are kept.")
    var dir = "fairfuel-hub"
    @Option(name: .customLong("until-idle"), help: "Stop after this many seconds without a message (default: run until SIGTERM).")
    var untilIdle: Double?
    @Option(name: .customLong("client-id"), help: "The MQTT client id (default: the one kept in DIR/.fairfuel-hub).")
    var clientID: String?
    @Option(help: "Share the cars with the other hub instances of this group (`$share/GROUP/...`): each record message goes to one of them; give them one --db.")
    var share: String?
    @Option(help: "Keep the records in this SQLite file or PostgreSQL server (postgres://USER@HOST[:PORT]/DB, the password in PGPASSWORD), the messages of each poll round in one transaction, instead of car directories; DIR's cars are imported once. `fairfuel family FILE|URL` reads it.")
    var db: String?

    func validate() throws {
        if let untilIdle, !(untilIdle > 0 && untilIdle <= 86_400) { throw ValidationError("--until-idle must be 0 < SECONDS <= 86400") }
        if let share, share.isEmpty || share.contains(where: { "/+#".contains($0) || $0 == " " }) {
            throw ValidationError("--share \(share): a group name without /, +, # or spaces")
        }
        if share != nil && db == nil { throw ValidationError("--share needs --db: the instances of a group keep one database") }
    }

    func run() throws {
        let url = connection.url
        let prefix = connection.prefix
        let clock = MonotonicClock()
        let collector: HubCollector
        do {
            collector = try HubCollector(directory: dir, prefix: prefix, database: try db.map { argument throws in try HubDatabases.open(argument) })
            let imported = try collector.importDirectoryOnce()
            if imported > 0, let database = collector.database {
                printError("hub: imported \(imported) record(s) of \(dir)'s cars into \(database.location)")
            }
        } catch {
            throw UserFacingError("hub: \(error)")
        }
        let commands: HubCommandLog
        do { commands = try HubCommandLog(directory: dir) } catch { throw UserFacingError("hub: \(error)") }
        let configuration = try connection.clientConfiguration(clientID: clientID ?? collector.clientID, cleanSession: false)
        let client: MQTTClient
        do { client = try MQTTClient(configuration: configuration) } catch { throw UserFacingError("hub: \(error)") }
        var lastMessageMs = clock.now.value
        var failure: PullClientError?
        var reported: String?
        var refusalLog = RateLimitedLog<String>()
        client.setHandlers(MQTTClient.Handlers(
            connected: {
                printError("hub: connected to \(url) as \(configuration.clientID)")
                for kind in ["trip", "refuel", "split", "status"] {
                    // Records through the shared subscription (one instance each), the retained status plainly
                    // (a broker sends retained messages to no shared subscription).
                    let filter = "\(prefix)/+/\(kind)"
                    let shared = share.map { kind == "status" ? filter : "$share/\($0)/\(filter)" } ?? filter
                    do { try client.subscribe(shared) } catch { printError("hub: cannot subscribe: \(error)") }
                }
                // The cars' answers to the commands sent from this directory (`hub command --dir`).
                do { try client.subscribe("\(prefix)/+/command/result") } catch { printError("hub: cannot subscribe: \(error)") }
            },
            disconnected: { error, _ in
                if reported != error.description { printError("hub: \(url): \(error); retrying with backoff") }
                reported = error.description
            },
            received: { topic, payload, _ in
                lastMessageMs = clock.now.value
                guard failure == nil else { return }
                if topic.hasSuffix("/command/result") {
                    do throws(PullClientError) { try commands.answer(topic: topic, payload: payload, atUTCMs: WallClock.utcMilliseconds()) } catch { failure = error }
                    return
                }
                // Stored after the round, with the round's other messages, in one transaction.
                collector.hold(topic: topic, payload: payload)
            }))
        try catchStopSignals { _ in hubInterrupted.store(true, ordering: .relaxed) }
        func storeHeld() {
            do throws(PullClientError) {
                for (topic, outcome) in try collector.storeHeld(nowMs: clock.now.value, log: printError) {
                    switch outcome {
                    case let .ignored(reason) where !topic.hasSuffix("/status"):
                        printError("hub: ignored a message on \(topic): \(reason)")
                    case let .refused(reason):
                        // Anyone who can publish under the prefix can send these: a line a minute per car, all kept for `hub status`.
                        let car = topic.split(separator: "/").dropLast().last.map(String.init) ?? topic
                        if case let .line(suppressed) = refusalLog.admit(car, nowMs: clock.now.value) {
                            printError("hub: refused a message on \(topic): \(reason)"
                                + (suppressed > 0 ? " (\(suppressed) more refused before; `fairfuel hub status` lists them)" : ""))
                        }
                    default:
                        break
                    }
                }
            } catch {
                failure = error
            }
        }
        client.start(nowMs: clock.now.value)
        while !hubInterrupted.load(ordering: .relaxed), failure == nil {
            let now = clock.now.value
            if let untilIdle, collector.heldCount == 0, now - lastMessageMs >= Int64(untilIdle * 1_000) { break }
            if let retryAtMs = collector.databaseRetryAtMs {
                // The database is away: read nothing more (the broker keeps the session's messages) until the next attempt.
                var nothing = PollSet(capacity: 0)
                if retryAtMs > now { nothing.wait(timeoutMs: min(retryAtMs - now, 1_000)) }
                storeHeld()
                continue
            }
            var timeout = max(0, (client.nextServiceMs(nowMs: now) ?? now + 1_000) - now)
            if let untilIdle { timeout = min(timeout, max(0, lastMessageMs + Int64(untilIdle * 1_000) - now)) }
            let ready = client.waitForReadiness(timeoutMs: Int32(clamping: min(timeout, 1_000)))
            client.service(readable: ready.readable, writable: ready.writable, nowMs: clock.now.value)
            // Reads on while messages keep coming (the broker sends more as their PUBACKs go out): one transaction for the round.
            var heldBefore = 0
            while collector.heldCount > heldBefore, collector.wantsMessages, client.state == .connected {
                heldBefore = collector.heldCount
                client.service(readable: true, writable: client.wantsWrite, nowMs: clock.now.value)
            }
            storeHeld()
            do throws(PullClientError) { try collector.flush() } catch { failure = error }
        }
        if failure == nil && collector.heldCount > 0 { storeHeld() }
        if collector.heldCount > 0 { printError("hub: stopped with \(collector.heldCount) message(s) received and not stored (the database was away); a car's `resend` brings them again") }
        let connected = client.counters.connects > 0
        client.stop()
        if let failure { throw UserFacingError("hub: \(failure)") }
        let c = collector.counters
        print("hub: \(c.kept) record message(s) kept, \(c.stale) duplicate or older, \(c.refused) refused, \(c.ignored) ignored; cars in \(dir)")
        if !connected { throw UserFacingError("hub: never connected to \(url): \(client.lastError.map { "\($0)" } ?? "no answer")") }
    }
}

private func printError(_ line: String) { StandardErrorLog.write(Array((line + "\n").utf8)) }
