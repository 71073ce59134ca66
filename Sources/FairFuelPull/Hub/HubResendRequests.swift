import FairFuelCore
import FairFuelDomain
import FairFuelEdges

/// A hub that started late, or lost its store, asks each car it holds a pairing secret for to
/// publish again what it missed: a signed `resend` since the highest message id the hub holds of
/// that car (0 when none). Once per car per run: when the hub starts, and when a car it did not ask
/// yet sends its first message; at most one request every `spacingMs`, so a hub of many cars never
/// floods the broker or the cars.
public final class HubResendRequests {
    /// `<vehicle id>.secret` in the secrets directory: the pairing secret as `hub command --secret-file` reads it.
    public static let secretSuffix = ".secret"
    /// The cars one run asks at most: what the hub remembers of them stays bounded.
    public static let maximumCars = 10_000
    /// Between two requests: ten a second.
    public static let spacingMs: Int64 = 100
    /// In the hub's directory: whether its last run could ask (`fairfuel hub status` says so).
    public static let stateFileName = HubCollector.markerName + "-resend"

    /// One car to ask, with the key to sign its command.
    public struct Request: Sendable, Equatable {
        public var vehicle: String
        public var sinceMessageID: Int64
        fileprivate var secret: PairingSecret
    }

    public let secretsDirectory: String
    public let maximumCars: Int
    /// Where each car's secret is read: the same lookup the hub's web app signs with.
    private let secrets: HubCommandSecrets
    /// Every car this run asked, or whose secret file could not be read: each is considered once.
    /// A car without a file is not remembered (messages under made-up vehicle ids add nothing); its
    /// file is looked for again at its next message, so a secret added while the hub runs is used.
    private var considered: Set<String> = []
    private var queue: [Request] = []
    private var nextQueued = 0
    private var lastSentMs: Int64?
    /// Secret files that could not be read, until `takeProblems`.
    private var problems: [String] = []

    public init(secretsDirectory: String, maximumCars: Int = HubResendRequests.maximumCars) throws(PullClientError) {
        self.secretsDirectory = secretsDirectory
        self.maximumCars = maximumCars
        _ = try Self.entries(secretsDirectory)
        guard let secrets = HubCommandSecrets(directory: secretsDirectory) else { throw .file("--secrets \(secretsDirectory): not a directory") }
        self.secrets = secrets
    }

    /// The vehicle ids with a secret file, sorted (at most `maximumCars`).
    public func vehiclesWithSecrets() throws(PullClientError) -> [String] {
        let names = try Self.entries(secretsDirectory).filter { $0.hasSuffix(Self.secretSuffix) }
        let vehicles = names.map { String($0.dropLast(Self.secretSuffix.count)) }.filter { HubCollector.isPlainID($0) }
        return Array(vehicles.sorted().prefix(maximumCars))
    }

    /// Queues a request for `vehicle` unless this run considered it already or holds no secret for
    /// it; `since` (the hub's highest message id of the car) is read only then, before the message
    /// that prompted it is stored. True when queued.
    @discardableResult
    public func ask(_ vehicle: String, since: () throws(PullClientError) -> Int64) throws(PullClientError) -> Bool {
        guard !considered.contains(vehicle), considered.count < maximumCars, HubCollector.isPlainID(vehicle) else { return false }
        let secret: PairingSecret
        do throws(HubCommandSecrets.Problem) { secret = try secrets.secret(for: vehicle) } catch {
            guard case .unreadable = error else { return false }
            considered.insert(vehicle)
            problems.append("\(error)")
            return false
        }
        considered.insert(vehicle)
        queue.append(Request(vehicle: vehicle, sinceMessageID: try since(), secret: secret))
        return true
    }

    /// The secret files found unreadable since the last call, each once.
    public func takeProblems() -> [String] {
        defer { problems.removeAll() }
        return problems
    }

    /// How many requests wait for their turn.
    public var waiting: Int { queue.count - nextQueued }

    /// The next request when its turn has come at `nowMs` (monotonic), else nil.
    public func next(nowMs: Int64) -> Request? {
        guard nextQueued < queue.count else { return nil }
        if let lastSentMs, nowMs - lastSentMs < Self.spacingMs { return nil }
        lastSentMs = nowMs
        defer {
            nextQueued += 1
            if nextQueued == queue.count {
                queue.removeAll(keepingCapacity: true)
                nextQueued = 0
            }
        }
        return queue[nextQueued]
    }

    /// The signed envelope of `request` as a `resend` command with a fresh random id, issued at `issuedUTCMs`.
    public static func command(for request: Request, issuedUTCMs: Int64) -> (command: FleetCommand, envelope: [UInt8]) {
        let command = FleetCommand(
            id: Hex.string(PullNonce.random(count: 16)), issuedUTCMs: issuedUTCMs, operation: .resend(sinceMessageID: request.sinceMessageID))
        return (command, Array(command.signedEnvelope(key: request.secret.bytes, mac: HMACSHA256.mac).utf8))
    }

    /// Records in the hub's directory whether this run asks the cars (`secretsDirectory`) or cannot (nil).
    public static func recordState(directory: String, secretsDirectory: String?) throws(PullClientError) {
        try PullFiles.replace(directory + "/" + stateFileName, with: secretsDirectory.map { "asks\t\($0)\n" } ?? "cannot-ask\n")
    }

    /// The secrets directory the hub's last run asked with, "" when it ran without one, nil when unknown.
    public static func state(directory: String) throws(PullClientError) -> String? {
        guard let text = try PullFiles.read(directory + "/" + stateFileName) else { return nil }
        let fields = text.split(separator: "\n").first?.split(separator: "\t", maxSplits: 1) ?? []
        guard fields.first == "asks" else { return "" }
        return fields.count > 1 ? String(fields[1]) : ""
    }

    private static func entries(_ directory: String) throws(PullClientError) -> [String] {
        do { return try FileOperations.directoryEntries(directory) } catch {
            throw .file("--secrets \(directory): \(error)")
        }
    }
}
