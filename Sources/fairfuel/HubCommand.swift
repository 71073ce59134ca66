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
        if let problem = HubBroker.prefixProblem(prefix) { throw ValidationError("--prefix \(prefix): \(problem)") }
        if let endpoint = UplinkEndpoint.parse(url), endpoint.tls, caFile == nil { throw ValidationError("mqtts:// needs --ca-file") }
    }

    var broker: HubBroker {
        let endpoint = UplinkEndpoint.parse(url)!
        return HubBroker(url: url, host: endpoint.host, port: endpoint.port, tls: endpoint.tls, prefix: prefix, caFile: caFile, credentialsFile: credentials)
    }

    /// The client's configuration; `cleanSession` false keeps the session (and queued messages) at the broker.
    func clientConfiguration(clientID: String, cleanSession: Bool) throws -> MQTTClientConfiguration {
        do { return try broker.clientConfiguration(clientID: clientID, cleanSession: cleanSession) } catch {
            throw UserFacingError("hub: \(error)")
        }
    }
}

struct HubCollectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "collect",
        abstract: "Collect the cars' uplink messages from an MQTT broker into the hub's database for `fairfuel family`.",
        discussion: """
            Subscribes with QoS 1 to <prefix>/+/trip, refuel, split and status, in a persistent session
            (the client id is made once and kept in DIR/.fairfuel-hub), so messages published while the
            hub is away wait in the broker. Each car's latest revision of every record is kept in the
            hub's database: DIR/hub.db (SQLite) unless --db names another; `fairfuel family DIR` reads
            it. A hub directory from before keeps its car directories; they are imported once and not
            written any more. A resend (same revision) changes nothing, a correction replaces, a deletion
            removes. A message that fails the payload's checks is refused and kept with its reason
            (`fairfuel hub status --dir DIR`).
            """)

    @OptionGroup var connection: HubConnectionOptions
    @Option(help: "The hub's directory: its database (hub.db), client id and state.")
    var dir = "fairfuel-hub"
    @Option(name: .customLong("until-idle"), help: "Stop after this many seconds without a message (default: run until SIGTERM).")
    var untilIdle: Double?
    @Option(name: .customLong("client-id"), help: "The MQTT client id (default: the one kept in DIR/.fairfuel-hub).")
    var clientID: String?
    @Option(help: "Share the cars with the other hub instances of this group (`$share/GROUP/...`): each record message goes to one of them; give them one --db.")
    var share: String?
    @Option(help: "A directory of the cars' pairing secrets, one file <vehicle-id>.secret each (as `hub command --secret-file` reads it): the hub asks each of those cars, once a run, to publish again what it missed (a signed `resend`).")
    var secrets: String?
    @Option(help: "Keep the records in this SQLite file or PostgreSQL server (postgres://USER@HOST[:PORT]/DB, the password in PGPASSWORD) instead of DIR/hub.db, the messages of each poll round in one transaction; DIR's old car directories are imported once. `fairfuel family FILE|URL` reads it.")
    var db: String?
    @Flag(name: .customLong("car-directories"), help: "Keep each car's records as a pull directory under DIR, rewritten per message, instead of a database (as hubs did before; slow for many cars).")
    var carDirectories = false

    /// The database the records go to: --db, else the directory's own; nil with --car-directories.
    func databaseArgument() throws(PullClientError) -> String? {
        if carDirectories { return nil }
        if let db { return db }
        return try HubDirectoryDatabase.pathMakingDirectory(dir)
    }

    func validate() throws {
        if let untilIdle, !(untilIdle > 0 && untilIdle <= 86_400) { throw ValidationError("--until-idle must be 0 < SECONDS <= 86400") }
        if let share, share.isEmpty || share.contains(where: { "/+#".contains($0) || $0 == " " }) {
            throw ValidationError("--share \(share): a group name without /, +, # or spaces")
        }
        if carDirectories && db != nil { throw ValidationError("--car-directories and --db are exclusive: a hub keeps its records in one of them") }
        if share != nil && db == nil { throw ValidationError("--share needs --db: the instances of a group keep one database") }
    }

    func run() throws {
        let url = connection.url
        let prefix = connection.prefix
        let clock = MonotonicClock()
        let collector: HubCollector
        do {
            let database = try databaseArgument().map { argument throws in try HubDatabases.open(argument) }
            collector = try HubCollector(directory: dir, prefix: prefix, database: database)
            let imported = try collector.importDirectoryOnce()
            if imported > 0, let database = collector.database {
                printError("hub: imported \(imported) record(s) of \(dir)'s cars into \(database.location)")
            }
        } catch {
            throw UserFacingError("hub: \(error)")
        }
        // The answers go where `hub command` (or the hub's web app) listed the commands: the database when there is one.
        let commands: any HubCommandKeeping
        if let database = collector.database {
            commands = HubDatabaseCommandLog(database)
        } else {
            do { commands = try HubCommandLog(directory: dir) } catch { throw UserFacingError("hub: \(error)") }
        }
        let resends = try askingForWhatWasMissed(collector)
        let configuration = try connection.clientConfiguration(clientID: clientID ?? collector.clientID, cleanSession: false)
        let client: MQTTClient
        do { client = try MQTTClient(configuration: configuration) } catch { throw UserFacingError("hub: \(error)") }
        var lastMessageMs = clock.now.value
        var failure: PullClientError?
        var reported: String?
        var refusalLog = RateLimitedLog<String>()
        var isConnected = false
        client.setHandlers(MQTTClient.Handlers(
            connected: {
                isConnected = true
                printError("hub: connected to \(url) as \(configuration.clientID)")
                for kind in ["trip", "refuel", "split", "status"] {
                    // Records through the shared subscription (one instance each), the retained status plainly
                    // (a broker sends retained messages to no shared subscription).
                    let filter = "\(prefix)/+/\(kind)"
                    let shared = share.map { kind == "status" ? filter : "$share/\($0)/\(filter)" } ?? filter
                    do { try client.subscribe(shared) } catch { printError("hub: cannot subscribe: \(error)") }
                }
                // The cars' answers to the commands sent from this hub (`hub command --dir|--db`, the web app).
                do { try client.subscribe("\(prefix)/+/command/result") } catch { printError("hub: cannot subscribe: \(error)") }
            },
            disconnected: { error, _ in
                isConnected = false
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
                // A car's first message this run: what the hub held before it is what the car is asked to send after.
                if let resends, let vehicle = HubCollector.vehicle(topic: topic, prefix: prefix) {
                    do throws(PullClientError) {
                        try resends.ask(vehicle) { () throws(PullClientError) -> Int64 in try collector.highestMessageID(vehicle: vehicle) }
                    } catch {
                        failure = error
                        return
                    }
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
            // Requests still to send to a connected broker keep an idle hub running, and wake it at their pace.
            let asking = isConnected && (resends?.waiting ?? 0) > 0
            if let untilIdle, collector.heldCount == 0, now - lastMessageMs >= Int64(untilIdle * 1_000), !asking { break }
            if let retryAtMs = collector.databaseRetryAtMs {
                // The database is away: read nothing more (the broker keeps the session's messages) until the next attempt.
                var nothing = PollSet(capacity: 0)
                if retryAtMs > now { nothing.wait(timeoutMs: min(retryAtMs - now, 1_000)) }
                storeHeld()
                continue
            }
            var timeout = max(0, (client.nextServiceMs(nowMs: now) ?? now + 1_000) - now)
            if let untilIdle { timeout = min(timeout, max(0, lastMessageMs + Int64(untilIdle * 1_000) - now)) }
            if asking { timeout = min(timeout, HubResendRequests.spacingMs) }
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
            if isConnected, let resends { sendDue(resends, client: client, commands: commands, nowMs: clock.now.value) }
        }
        if failure == nil && collector.heldCount > 0 { storeHeld() }
        if collector.heldCount > 0 { printError("hub: stopped with \(collector.heldCount) message(s) received and not stored (the database was away); a car's `resend` brings them again") }
        let connected = client.counters.connects > 0
        client.stop()
        if let failure { throw UserFacingError("hub: \(failure)") }
        let c = collector.counters
        print("hub: \(c.kept) record message(s) kept, \(c.stale) duplicate or older, \(c.refused) refused, \(c.ignored) ignored; cars in "
            + (collector.database?.location ?? dir))
        if !connected { throw UserFacingError("hub: never connected to \(url): \(client.lastError.map { "\($0)" } ?? "no answer")") }
    }
}

extension HubCollectCommand {
    /// With --secrets, the cars to ask (each with a secret, queued now with what the hub holds of
    /// it); without, says that a late hub cannot ask. Either way `hub status` says which.
    func askingForWhatWasMissed(_ collector: HubCollector) throws -> HubResendRequests? {
        do {
            try HubResendRequests.recordState(directory: dir, secretsDirectory: secrets)
            guard let secrets else {
                printError("hub: without --secrets this hub cannot ask the cars for what they published before it started or while it had no store; "
                    + "give --secrets DIR (one <vehicle-id>.secret per car), or send `fairfuel hub command … resend --since 0`")
                return nil
            }
            do { try HMACSHA256.load() } catch { throw UserFacingError("hub: \(error)") }
            let requests = try HubResendRequests(secretsDirectory: secrets)
            for vehicle in try requests.vehiclesWithSecrets() {
                try requests.ask(vehicle) { () throws(PullClientError) -> Int64 in try collector.highestMessageID(vehicle: vehicle) }
            }
            for problem in requests.takeProblems() { printError("hub: \(problem)") }
            printError("hub: asking \(requests.waiting) car(s) with a secret in \(secrets) for what the hub missed")
            return requests
        } catch let error as PullClientError {
            throw UserFacingError("hub: \(error)")
        }
    }

    /// Sends the requests whose turn has come, each recorded as a pending command until the car answers.
    func sendDue(_ requests: HubResendRequests, client: MQTTClient, commands: any HubCommandKeeping, nowMs: Int64) {
        while let request = requests.next(nowMs: nowMs) {
            let issued = WallClock.utcMilliseconds()
            let (command, envelope) = HubResendRequests.command(for: request, issuedUTCMs: issued)
            do {
                try commands.sent(vehicle: request.vehicle, id: command.id, name: command.operation.name, atUTCMs: issued)
                _ = try client.publish(topic: "\(connection.prefix)/\(request.vehicle)/command", payload: envelope, retained: false)
                printError("hub: asked \(request.vehicle) to resend since message \(request.sinceMessageID) (command \(command.id))")
            } catch {
                printError("hub: cannot ask \(request.vehicle) to resend: \(error)")
            }
        }
        for problem in requests.takeProblems() { printError("hub: \(problem)") }
    }
}

private func printError(_ line: String) { StandardErrorLog.write(Array((line + "\n").utf8)) }
