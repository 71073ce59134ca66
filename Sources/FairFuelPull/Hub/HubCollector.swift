import FairFuelCore
import FairFuelEdges
import FairFuelStore

/// What a hub keeps of the uplink messages of many cars: each car's latest revision of every
/// trip, refuel and split, written as that car's pull directory (`DIR/<vehicle id>/.fairfuel-pull/`),
/// so that `fairfuel family` reads the cars as if they had been pulled over USB.
///
/// A message whose revision is not above the kept one (a resend, or an older correction arriving
/// late) changes nothing; a deletion is kept as a record with `deleted` so that an older revision
/// cannot bring the record back. Everything a car's files are made from is kept in
/// `.fairfuel-pull/hub-records.tsv` beside them; every file is rewritten whole through a rename.
public final class HubCollector {
    /// What became of one message.
    public enum Outcome: Sendable, Equatable {
        case kept
        /// Its revision was not above the kept one (a duplicate when equal).
        case stale
        /// Not a record message of a car under the prefix (status, or unreadable); the reason.
        case ignored(String)
        /// A record message that fails the payload's checks (`HubMessageCheck`) or claims another
        /// car's `vehicle_uid`: nothing stored, the reason kept (`refusals`).
        case refused(String)
    }

    public struct Counters: Sendable, Equatable {
        public var kept = 0
        public var stale = 0
        public var ignored = 0
        public var refused = 0
    }

    struct Kept {
        var kind: String
        var id: Int64
        var revision: Int64
        var deleted: Bool
        var payload: String
    }

    /// The marker in the hub's directory; `fairfuel family DIR` reads every car under a directory holding it.
    public static let markerName = ".fairfuel-hub"
    static let recordsName = "hub-records.tsv"

    public let directory: String
    public let prefix: String
    /// The MQTT client id this directory's hub connects with, made once and kept in the marker:
    /// the broker keeps the hub's session (subscriptions, queued messages) under it.
    public let clientID: String
    public private(set) var counters = Counters()
    private var cars: [String: [String: Kept]] = [:]
    private var dirty: Set<String> = []
    /// Each `vehicle_uid` and the vehicle id that claimed it first (`DIR/.fairfuel-hub-uids`).
    private var uidOwners: [String: String] = [:]
    /// Record messages received and not stored yet (`hold`, `storeHeld`): at most a transaction's worth.
    var held: [(topic: String, payload: [UInt8])] = []
    /// While the database is away: when the hub tries it again (monotonic milliseconds), and the wait after that.
    public internal(set) var databaseRetryAtMs: Int64?
    var databaseBackoffMs: Int64 = 0
    /// In the database when there is one (shared by a group's instances), else in the directory.
    let refusals: any HubRefusalKeeping
    /// With a database, how many bindings `uidOwners` caches before it is emptied.
    var uidCacheLimit = HubMessageCheck.maximumCachedUIDs
    var cachedUIDCount: Int { uidOwners.count }

    /// With a database, records go there (a poll round's messages in one transaction, `storeHeld`)
    /// with the bindings and the refusals, and no car's files are written; `directory` keeps the client id.
    public let database: (any HubRecordStoring)?

    /// Makes `directory` (and its marker) if needed; each car's kept records are read when its first message arrives.
    public init(directory: String, prefix: String, database: (any HubRecordStoring)? = nil) throws(PullClientError) {
        self.directory = directory
        self.prefix = prefix
        self.database = database
        try PullFiles.makeDirectory(directory)
        let marker = directory + "/" + Self.markerName
        if let text = try PullFiles.read(marker), let line = text.split(separator: "\n").first, !line.isEmpty {
            clientID = String(line)
        } else {
            var random = SystemRandomNumberGenerator()
            let suffix = (0..<8).map { _ in String(UInt8.random(in: 0...255, using: &random), radix: 16) }
                .map { $0.count == 1 ? "0" + $0 : $0 }.joined()
            clientID = "fairfuel-hub-" + suffix
            try PullFiles.replace(marker, with: clientID + "\n")
        }
        // With a database the bindings are its own (the directory's are copied there once, `importDirectoryOnce`).
        if database == nil { uidOwners = try Self.directoryUIDOwners(directory) }
        if let database {
            refusals = HubDatabaseRefusals(database)
        } else {
            refusals = try HubRefusals(path: directory + "/" + HubRefusals.fileName)
        }
    }

    static let uidsName = markerName + "-uids"

    /// The vehicle_uid bindings kept in `directory`, the first claim of each.
    static func directoryUIDOwners(_ directory: String) throws(PullClientError) -> [String: String] {
        var owners: [String: String] = [:]
        for fields in PulledRecords.lines(try PullFiles.read(directory + "/" + uidsName)) where fields.count >= 2 {
            if owners[fields[0]] == nil { owners[fields[0]] = fields[1] }
        }
        return owners
    }

    /// The car directories under a hub directory (sorted by vehicle id), or nil when `directory` is not a hub's.
    public static func carDirectories(in directory: String) throws(PullClientError) -> [String]? {
        guard try PullFiles.read(directory + "/" + markerName) != nil else { return nil }
        guard let list = try PullFiles.read(directory + "/" + markerName + "-cars") else { return [] }
        return list.split(separator: "\n").map { directory + "/" + $0 }.sorted()
    }

    /// The vehicle id of a `<prefix>/<vehicle>/<kind>` topic (a plain id), nil for any other topic.
    public static func vehicle(topic: String, prefix: String) -> String? {
        guard topic.hasPrefix(prefix + "/") else { return nil }
        let levels = topic.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == 2, isPlainID(String(levels[0])) else { return nil }
        return String(levels[0])
    }

    /// Takes one message from `topic` (`<prefix>/<vehicle>/<kind>`).
    @discardableResult
    public func receive(topic: String, payload: [UInt8]) throws(PullClientError) -> Outcome {
        if database != nil { return try storeInOneTransaction([(topic, payload)])[0] }
        let outcome = try take(topic: topic, payload: payload)
        try count(outcome, topic: topic, payload: payload)
        return outcome
    }

    /// Counts what became of a message and keeps a refused one's reason.
    func count(_ outcome: Outcome, topic: String, payload: [UInt8]) throws(PullClientError) {
        switch outcome {
        case .kept: counters.kept += 1
        case .stale: counters.stale += 1
        case .ignored: counters.ignored += 1
        case let .refused(reason):
            counters.refused += 1
            let levels = topic.split(separator: "/")
            let message = HubMessageCheck.sizeProblem(byteCount: payload.count) != nil
                ? nil : JSONValue(String(decoding: payload, as: UTF8.self))?["message_id"]?.int
            try refusals.record(
                vehicle: levels.count >= 2 ? String(levels[levels.count - 2]) : "?", kind: String(levels.last ?? "?"), messageID: message,
                reason: reason, receivedUTCMs: WallClock.utcMilliseconds())
        }
    }

    /// A message checked: a record to store, or what became of it instead.
    enum Checked {
        case record(HubRecordOffer)
        case outcome(Outcome)
    }

    private func take(topic: String, payload: [UInt8]) throws(PullClientError) -> Outcome {
        let record: HubRecordOffer
        switch try check(topic: topic, payload: payload) {
        case let .outcome(outcome): return outcome
        case let .record(checked): record = checked
        }
        try load(record.vehicle)
        let key = "\(record.kind):\(record.id)"
        if let kept = cars[record.vehicle]?[key], record.revision <= kept.revision { return .stale }
        cars[record.vehicle, default: [:]][key] = Kept(kind: record.kind, id: record.id, revision: record.revision, deleted: record.deleted, payload: record.payload)
        dirty.insert(record.vehicle)
        return .kept
    }

    /// Checks one message alone (the payload's checks, the vehicle_uid's owner); nothing is stored.
    func check(topic: String, payload: [UInt8]) throws(PullClientError) -> Checked {
        guard topic.hasPrefix(prefix + "/") else { return .outcome(.ignored("not under \(prefix)/")) }
        let levels = topic.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == 2 else { return .outcome(.ignored("not <prefix>/<vehicle>/<kind>")) }
        let vehicle = String(levels[0])
        let kind = String(levels[1])
        guard ["trip", "refuel", "split"].contains(kind) else { return .outcome(.ignored("\(kind) is not a record topic")) }
        // The vehicle id names a directory: letters, digits, '-' and '_' only.
        guard Self.isPlainID(vehicle) else { return .outcome(.ignored("vehicle id \(vehicle) is not a plain id")) }
        if let problem = HubMessageCheck.sizeProblem(byteCount: payload.count) { return .outcome(.refused(problem)) }
        let text = String(decoding: payload, as: UTF8.self)
        guard let json = JSONValue(text), let id = json["id"]?.int, let revision = json["revision"]?.int else {
            return .outcome(.ignored("not a version 1 record message"))
        }
        guard json["v"]?.int == 1 else { return .outcome(.ignored("payload version \(json["v"]?.int.map(String.init) ?? "?")")) }
        guard json["vehicle"]?.string == nil || json["vehicle"]?.string == vehicle else { return .outcome(.refused("vehicle differs from the topic's")) }
        if let bad = Self.numberOutOfRange(json) { return .outcome(.refused("\(bad.key) out of range: \(bad.text)")) }
        if let problem = HubMessageCheck.problem(kind: kind, vehicle: vehicle, json) { return .outcome(.refused(problem)) }
        // A car's identity belongs to the first vehicle id that claimed it: a copy under another id
        // would make `family` see one car twice.
        if let uid = json["vehicle_uid"]?.string {
            let owner = try claim(uid: uid, vehicle: vehicle)
            if owner.isEmpty { return .outcome(.refused(HubMessageCheck.tooManyUIDs(vehicle: vehicle))) }
            if owner != vehicle { return .outcome(.refused("vehicle_uid \(uid) belongs to vehicle \(owner), which claimed it first")) }
        }
        return .record(HubRecordOffer(
            vehicle: vehicle, kind: kind, id: id, revision: revision, deleted: json["deleted"]?.bool == true, messageID: json["message_id"]?.int,
            payload: text))
    }

    /// The largest number in a record message: far above any real trip or bill (ids, millisecond
    /// durations, minor units), and low enough that the family's views can add millions of them,
    /// and seconds times 1000, without overflowing Int64. None is negative (a car sends counts,
    /// amounts and durations), so none can be.
    static let maximumNumberMagnitude = 1e12
    /// For `<name>_s` fields, which become milliseconds.
    static let maximumSecondsMagnitude = 1e9
    /// The positions a trip carries when the family turned them on (`start`, `end`: [lat, lon];
    /// `track`: [[t_utc_ms, lat, lon], …]): west and south of Greenwich they are negative, and a
    /// point's UTC milliseconds are past 1e12. Never summed, so only their magnitude is bounded.
    static let positionKeys: Set<String> = ["start", "end", "track"]
    static let maximumPositionMagnitude = 1e15

    /// The first number in `json` (keys in order) that is negative or beyond those limits, with the key it is under.
    static func numberOutOfRange(_ json: JSONValue, key: String = "", inPosition: Bool = false) -> (key: String, text: String)? {
        switch json {
        case let .object(fields):
            for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
                if let bad = numberOutOfRange(value, key: name, inPosition: positionKeys.contains(name)) { return bad }
            }
        case let .array(items):
            for item in items {
                if let bad = numberOutOfRange(item, key: key, inPosition: inPosition) { return bad }
            }
        case let .literal(text):
            // true, false and null are not numbers.
            guard let value = Double(text) else { return nil }
            if inPosition { return value.magnitude <= maximumPositionMagnitude ? nil : (key, text) }
            let limit = key.hasSuffix("_s") ? maximumSecondsMagnitude : maximumNumberMagnitude
            if !(value >= 0 && value <= limit) { return (key, text) }
        case .string:
            break
        }
        return nil
    }

    /// 1 to 64 ASCII letters, digits, '-' and '_': what a vehicle id may be.
    static func isPlainID(_ id: String?) -> Bool {
        guard let id, !id.isEmpty, id.count <= 64 else { return false }
        return id.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-" || $0 == "_" }
    }

    /// The highest `message_id` the hub holds of `vehicle` (0: none): a `resend` since it brings what the hub missed.
    public func highestMessageID(vehicle: String) throws(PullClientError) -> Int64 {
        if let database {
            do { return try database.highestMessageID(vehicle: vehicle) } catch { throw .file("hub database \(database.location): \(error)") }
        }
        guard Self.isPlainID(vehicle) else { return 0 }
        try load(vehicle)
        return (cars[vehicle] ?? [:]).values.compactMap { JSONValue($0.payload)?["message_id"]?.int }.max() ?? 0
    }

    /// Writes every car that changed since the last flush (with a database, nothing is left to write).
    public func flush() throws(PullClientError) {
        try refusals.flush()
        guard database == nil else { return }
        let carsListPath = directory + "/" + Self.markerName + "-cars"
        let listed = Set((try PullFiles.read(carsListPath) ?? "").split(separator: "\n").map(String.init))
        for vehicle in dirty.sorted() {
            try write(vehicle)
        }
        let all = listed.union(dirty)
        if all != listed { try PullFiles.replace(carsListPath, with: all.sorted().map { $0 + "\n" }.joined()) }
        dirty = []
    }

    /// The vehicle `uid` belongs to, binding it to `vehicle` when none claimed it yet: in the database
    /// when there is one (every instance of a group shares it), else in the directory. A binding
    /// never changes, so each is asked for once.
    /// Empty: `vehicle` holds `HubRecordSQL.maximumUIDsPerVehicle` already, and `uid` is bound to nobody.
    private func claim(uid: String, vehicle: String) throws(PullClientError) -> String {
        if let owner = uidOwners[uid] { return owner }
        if let database {
            // With a database the bindings are its; this is only a cache, emptied before it grows past its bound.
            if uidOwners.count >= uidCacheLimit { uidOwners = [:] }
            do {
                let owner = try database.claimVehicleUID(uid, vehicle: vehicle)
                if owner.isEmpty { return owner }
                uidOwners[uid] = owner
            } catch {
                throw .file("hub database \(database.location): \(error)")
            }
        } else {
            guard uidOwners.values.lazy.filter({ $0 == vehicle }).count < HubRecordSQL.maximumUIDsPerVehicle else { return "" }
            uidOwners[uid] = vehicle
            try PullFiles.appendDurably(directory + "/" + Self.uidsName, PullRecordLine.encode([uid, vehicle]))
        }
        return uidOwners[uid] ?? vehicle
    }

    private func state(_ vehicle: String) -> String { directory + "/" + vehicle + "/" + PullDownload.stateDirectoryName }

    private func load(_ vehicle: String) throws(PullClientError) {
        guard cars[vehicle] == nil else { return }
        var records: [String: Kept] = [:]
        for f in PulledRecords.lines(try PullFiles.read(state(vehicle) + "/" + Self.recordsName)) where f.count >= 5 {
            guard let id = Int64(f[1]), let revision = Int64(f[2]) else { throw .badRecord(kind: "hub record", line: f.joined(separator: " ")) }
            records["\(f[0]):\(id)"] = Kept(kind: f[0], id: id, revision: revision, deleted: f[3] == "1", payload: f[4])
        }
        cars[vehicle] = records
    }

    private func write(_ vehicle: String) throws(PullClientError) {
        let records = (cars[vehicle] ?? [:]).values.sorted { ($0.kind, $0.id) < ($1.kind, $1.id) }
        try PullFiles.makeDirectory(directory + "/" + vehicle)
        try PullFiles.makeDirectory(state(vehicle))
        let car = Self.carState(records, vehicle: vehicle, source: directory + "/" + vehicle)
        let stateDirectory = state(vehicle)
        try PullFiles.replace(stateDirectory + "/" + Self.recordsName, with: records.map(Self.recordLine).joined())
        try PullFiles.replace(stateDirectory + "/vehicle.tsv", with: car.vehicle ?? "")
        try PullFiles.replace(stateDirectory + "/drivers.tsv", with: car.drivers ?? "")
        try PullFiles.replace(stateDirectory + "/trips.tsv", with: car.trips ?? "")
        try PullFiles.replace(stateDirectory + "/splits.tsv", with: car.splits ?? "")
    }
}

extension HubCollector {
    /// Copies the records of a hub directory's cars into the database, once (the database remembers
    /// it): a hub moved from a folder to a database keeps what it had. Returns how many records.
    public func importDirectoryOnce() throws(PullClientError) -> Int {
        guard let database else { return 0 }
        let key = "imported:" + directory
        var count = 0
        do {
            guard try database.meta(key) == nil else { return 0 }
            let vehicles = (try PullFiles.read(directory + "/" + Self.markerName + "-cars") ?? "").split(separator: "\n").map(String.init)
            var all: [(String, Kept)] = []
            for vehicle in vehicles where Self.isPlainID(vehicle) {
                try load(vehicle)
                all += (cars[vehicle] ?? [:]).values.map { (vehicle, $0) }
            }
            let owners = try Self.directoryUIDOwners(directory)
            let refused = try HubRefusals.read(directory: directory)
            try database.inOneTransaction {
                try database.refusalsRecorded(refused, keyPrefix: "imported-")
                for (uid, vehicle) in owners.sorted(by: { $0.key < $1.key }) { _ = try database.claimVehicleUID(uid, vehicle: vehicle) }
                for (vehicle, record) in all {
                    let messageID = JSONValue(record.payload)?["message_id"]?.int
                    if try database.offer(
                        vehicle: vehicle, kind: record.kind, id: record.id, revision: record.revision, deleted: record.deleted,
                        messageID: messageID, payload: record.payload, storedUTCMs: WallClock.utcMilliseconds()) == .kept { count += 1 }
                }
                try database.setMeta(key, String(count))
            }
        } catch let error as PullClientError {
            throw error
        } catch {
            throw .file("hub database \(database.location): \(error)")
        }
        cars = [:]
        return count
    }
}
