import FairFuelCore
import FairFuelDomain
import FairFuelParsers
import FairFuelSQLite

/// A provisioned driver with the identities they are known by.
public struct DriverRecord: Sendable, Equatable {
    public var id: DriverID
    public var name: String
    public var contact: String?
    public var tags: [TagIdentity]
    public var beacons: [BeaconIdentity]
    /// The id in the driver's `fairfuel://driver/<uuid>` tags; nil until one was written or bound.
    public var uuid: UUID128?
    /// Removed drivers keep their row for history (trips, splits) but no tags, beacons or name claim.
    public var removed: Bool = false
}

extension TagIdentity {
    /// The store's (kind, value) columns.
    var storeColumns: (kind: String, value: String) {
        switch self {
        case let .driver(uuid): ("driver", uuid.description.lowercased())
        case let .uid(uid): ("uid", uid.plainHex.uppercased())
        }
    }

    init?(storeKind kind: String, value: String) {
        switch kind {
        case "driver": guard let uuid = UUID128(value) else { return nil }; self = .driver(uuid)
        case "uid": guard let uid = try? TagUID(parsing: value) else { return nil }; self = .uid(uid)
        default: return nil
        }
    }
}

extension TripStore {
    /// Current drivers per vehicle; the issue asks for at least 16.
    public static let maximumDrivers = 64

    /// Adds a driver with tags and beacons; a name, tag or beacon already taken is refused and nothing changes.
    @discardableResult
    public func addDriver(name: String, contact: String? = nil, tags: [TagIdentity], beacons: [BeaconIdentity]) throws(StoreError) -> DriverID {
        let trimmed = name.trimmingWhitespace
        guard !trimmed.isEmpty else { throw .invalid("a driver needs a name") }
        let count = try wrap { () throws(SQLiteError) in try connection.scalarInt("SELECT COUNT(*) FROM drivers WHERE removed = 0") } ?? 0
        guard count < Self.maximumDrivers else { throw .invalid("this vehicle already has \(Self.maximumDrivers) drivers") }
        if try currentDriverID(named: trimmed) != nil {
            throw .invalid("a driver named '\(trimmed)' already exists")
        }
        try requireUnbound(tags: tags, beacons: beacons)
        return try write {
            try connection.run("INSERT INTO drivers (name, contact) VALUES (?, ?)", .text(trimmed), .optional(contact))
            let id = connection.lastInsertRowID
            try bindInTransaction(tags: tags, beacons: beacons, driver: id)
            return DriverID(id)
        }
    }

    /// The latest removed driver called `name` (any case), whom `provision driver add` brings
    /// back rather than making a second person of the same name; nil when there is none.
    public func removedDriver(named name: String) throws(StoreError) -> DriverRecord? {
        try drivers(includingRemoved: true).last { $0.removed && $0.name.lowercased() == name.trimmingWhitespace.lowercased() }
    }

    /// Makes a removed driver current again, with `contact` (when given), `tags` and `beacons`:
    /// their past trips and shares of the bills were never taken from them.
    public func restoreDriver(_ driver: DriverID, contact: String? = nil, tags: [TagIdentity], beacons: [BeaconIdentity]) throws(StoreError) {
        guard let record = try drivers(includingRemoved: true).first(where: { $0.id == driver }), record.removed else {
            throw .notFound("no removed driver with id \(driver.rawValue)")
        }
        let count = try wrap { () throws(SQLiteError) in try connection.scalarInt("SELECT COUNT(*) FROM drivers WHERE removed = 0") } ?? 0
        guard count < Self.maximumDrivers else { throw .invalid("this vehicle already has \(Self.maximumDrivers) drivers") }
        if try currentDriverID(named: record.name) != nil {
            throw .invalid("a driver named '\(record.name)' already exists")
        }
        try requireUnbound(tags: tags, beacons: beacons)
        try write {
            try connection.run(
                "UPDATE drivers SET removed = 0, contact = COALESCE(?, contact) WHERE id = ?", .optional(contact), .integer(driver.rawValue))
            try bindInTransaction(tags: tags, beacons: beacons, driver: driver.rawValue)
        }
    }

    /// Adds a driver, or brings back the latest removed driver of that name (any case) with their
    /// past trips and bills, unless `newPerson` says it is someone else of that name. How both
    /// `provision driver add` and a bundle import add a driver. `restored`: the driver brought back
    /// (as they were when removed), nil when added.
    public func addOrRestoreDriver(
        name: String, contact: String? = nil, tags: [TagIdentity], beacons: [BeaconIdentity], newPerson: Bool = false
    ) throws(StoreError) -> (id: DriverID, restored: DriverRecord?) {
        if !newPerson, try currentDriverID(named: name.trimmingWhitespace) == nil, let removed = try removedDriver(named: name) {
            try restoreDriver(removed.id, contact: contact, tags: tags, beacons: beacons)
            return (removed.id, removed)
        }
        return (try addDriver(name: name, contact: contact, tags: tags, beacons: beacons), nil)
    }

    private func requireUnbound(tags: [TagIdentity], beacons: [BeaconIdentity]) throws(StoreError) {
        var seenTags = Set<TagIdentity>(), seenBeacons = Set<BeaconIdentity>()
        for tag in tags where !seenTags.insert(tag).inserted { throw .invalid("tag \(tag) is given twice") }
        for beacon in beacons where !seenBeacons.insert(beacon).inserted { throw .invalid("beacon \(beacon.spec) is given twice") }
        for tag in tags {
            if let owner = try owner(of: tag) { throw .invalid("tag \(tag) is already bound to \(owner.name)") }
        }
        for beacon in beacons {
            if let owner = try owner(of: beacon) { throw .invalid("beacon \(beacon.spec) is already bound to \(owner.name)") }
        }
    }

    private func bindInTransaction(tags: [TagIdentity], beacons: [BeaconIdentity], driver id: Int64) throws {
        for tag in tags { try insert(tag, driver: id) }
        for beacon in beacons {
            try connection.run("INSERT INTO driver_beacons (driver_id, spec) VALUES (?, ?)", .integer(id), .text(beacon.spec))
        }
    }

    /// Current drivers (and removed ones when asked), in the order they were added.
    public func drivers(includingRemoved: Bool = false) throws(StoreError) -> [DriverRecord] {
        try wrap { () throws(SQLiteError) in
            var records = try connection.query(
                "SELECT id, name, contact, uuid, removed FROM drivers WHERE removed = 0 OR ? ORDER BY id", .int(includingRemoved ? 1 : 0)
            ) { row in
                DriverRecord(
                    id: DriverID(row.int64(0)), name: row.text(1) ?? "", contact: row.text(2), tags: [], beacons: [],
                    uuid: row.text(3).flatMap { UUID128($0) }, removed: row.int64(4) != 0)
            }
            for index in records.indices {
                let id = records[index].id.rawValue
                records[index].tags = try connection.query(
                    "SELECT kind, value FROM driver_tags WHERE driver_id = ? ORDER BY id", .integer(id)
                ) { row in TagIdentity(storeKind: row.text(0) ?? "", value: row.text(1) ?? "") }.compactMap { $0 }
                records[index].beacons = try connection.query(
                    "SELECT spec FROM driver_beacons WHERE driver_id = ? ORDER BY id", .integer(id)
                ) { row in try? BeaconIdentity(spec: row.text(0) ?? "") }.compactMap { $0 }
            }
            return records
        }
    }

    /// The current driver called `name` (any case).
    public func driver(named name: String) throws(StoreError) -> DriverRecord? {
        guard let id = try currentDriverID(named: name) else { return nil }
        return try drivers().first { $0.id == id }
    }

    /// The current driver called `name`, or a clear error naming the drivers there are.
    public func requireDriver(named name: String) throws(StoreError) -> DriverRecord {
        if let record = try driver(named: name) { return record }
        let names = try drivers().map(\.name)
        throw .notFound("no driver named '\(name.trimmingWhitespace)'" + (names.isEmpty ? " (none provisioned)" : " (drivers: \(names.joined(separator: ", ")))"))
    }

    /// Removes a driver: their tags and beacons are freed, their past trips and splits keep their
    /// name; `provision driver add` of the same name brings them back.
    public func removeDriver(named name: String) throws(StoreError) -> DriverRecord {
        let record = try requireDriver(named: name)
        try write {
            try connection.run("DELETE FROM driver_tags WHERE driver_id = ?", .integer(record.id.rawValue))
            try connection.run("DELETE FROM driver_beacons WHERE driver_id = ?", .integer(record.id.rawValue))
            try connection.run("UPDATE drivers SET removed = 1 WHERE id = ?", .integer(record.id.rawValue))
        }
        return record
    }

    /// Renames a current driver, history included: their trips and their shares of every bill
    /// carry the new name, so that one person is one line in every list and total (a rename is a
    /// correction of how the family writes the name, not a new person). With an uplink, their
    /// trips and those bills are published again as corrections, so a hub follows.
    public func renameDriver(named name: String, to newName: String) throws(StoreError) -> DriverRecord {
        let record = try requireDriver(named: name)
        let trimmed = newName.trimmingWhitespace
        guard !trimmed.isEmpty else { throw .invalid("a driver needs a name") }
        if let other = try currentDriverID(named: trimmed), other != record.id {
            throw .invalid("a driver named '\(trimmed)' already exists")
        }
        guard trimmed != record.name else { return record }
        try write {
            let id = SQLiteValue.integer(record.id.rawValue)
            try connection.run("UPDATE drivers SET name = ? WHERE id = ?", .text(trimmed), id)
            try connection.run("UPDATE sessions SET driver_name = ? WHERE driver_id = ?", .text(trimmed), id)
            try connection.run("UPDATE refuel_shares SET driver_name = ? WHERE driver_id = ?", .text(trimmed), id)
            let trips = try connection.query("SELECT id FROM sessions WHERE driver_id = ? AND end_reason IS NOT NULL ORDER BY id", id) {
                $0.int64(0)
            }
            for trip in trips { try enqueueTripMessage(session: trip) }
            let bills = try connection.query("SELECT DISTINCT refuel_id FROM refuel_shares WHERE driver_id = ?", id) { $0.int64(0) }
            try enqueueSplitMessages(refuels: Set(bills))
        }
        return record
    }

    /// Sets or clears a driver's contact.
    public func setContact(_ contact: String?, driver: DriverID) throws(StoreError) {
        try write { try connection.run("UPDATE drivers SET contact = ? WHERE id = ?", .optional(contact), .integer(driver.rawValue)) }
    }

    /// Binds a tag to a driver: false when it already was theirs; an error naming the owner when it is someone else's.
    @discardableResult
    public func bind(tag: TagIdentity, to driver: DriverID) throws(StoreError) -> Bool {
        if let owner = try owner(of: tag) {
            if owner.id == driver { return false }
            throw .invalid("tag \(tag) is already bound to \(owner.name)")
        }
        try write { try insert(tag, driver: driver.rawValue) }
        return true
    }

    /// Binds a beacon to a driver: false when it already was theirs; an error naming the owner when it is someone else's.
    @discardableResult
    public func bind(beacon: BeaconIdentity, to driver: DriverID) throws(StoreError) -> Bool {
        if let owner = try owner(of: beacon) {
            if owner.id == driver { return false }
            throw .invalid("beacon \(beacon.spec) is already bound to \(owner.name)")
        }
        try write {
            try connection.run("INSERT INTO driver_beacons (driver_id, spec) VALUES (?, ?)", .integer(driver.rawValue), .text(beacon.spec))
        }
        return true
    }

    /// The driver a tag is bound to.
    public func owner(of tag: TagIdentity) throws(StoreError) -> (id: DriverID, name: String)? {
        let (kind, value) = tag.storeColumns
        return try wrap { () throws(SQLiteError) in
            try connection.query(
                "SELECT d.id, d.name FROM driver_tags t JOIN drivers d ON d.id = t.driver_id WHERE t.kind = ? AND t.value = ?",
                .text(kind), .text(value)
            ) { (DriverID($0.int64(0)), $0.text(1) ?? "") }.first
        }
    }

    /// The driver a beacon is bound to.
    public func owner(of beacon: BeaconIdentity) throws(StoreError) -> (id: DriverID, name: String)? {
        try wrap { () throws(SQLiteError) in
            try connection.query(
                "SELECT d.id, d.name FROM driver_beacons b JOIN drivers d ON d.id = b.driver_id WHERE b.spec = ?", .text(beacon.spec)
            ) { (DriverID($0.int64(0)), $0.text(1) ?? "") }.first
        }
    }

    /// The driver's URI id: the stored one, else `make()`'s, stored (so every tag written for them carries the same URI).
    public func driverUUID(for driver: DriverID, make: () -> UUID128) throws(StoreError) -> UUID128 {
        if let text = try wrap({ () throws(SQLiteError) in
            try connection.scalarText("SELECT uuid FROM drivers WHERE id = ?", .integer(driver.rawValue))
        }), let uuid = UUID128(text) {
            return uuid
        }
        let uuid = make()
        try write {
            try connection.run("UPDATE drivers SET uuid = ? WHERE id = ?", .text(uuid.description.lowercased()), .integer(driver.rawValue))
        }
        return uuid
    }

    /// The provisioning as the domain looks it up (current drivers only).
    public func directory() throws(StoreError) -> DriverDirectory {
        var directory = DriverDirectory()
        for record in try drivers() {
            directory.addDriver(.init(id: record.id, name: record.name))
            for tag in record.tags { directory.bind(tag: tag, to: record.id) }
            for beacon in record.beacons { directory.bind(beacon: beacon, to: record.id) }
        }
        return directory
    }

    public func driverID(named name: String) throws(StoreError) -> DriverID? {
        try currentDriverID(named: name)
    }

    private func currentDriverID(named name: String) throws(StoreError) -> DriverID? {
        try wrap { () throws(SQLiteError) in
            try connection.scalarInt("SELECT id FROM drivers WHERE name = ? AND removed = 0", .text(name.trimmingWhitespace)).map(DriverID.init)
        }
    }

    private func insert(_ tag: TagIdentity, driver: Int64) throws(SQLiteError) {
        let (kind, value) = tag.storeColumns
        try connection.run("INSERT INTO driver_tags (driver_id, kind, value) VALUES (?, ?, ?)", .integer(driver), .text(kind), .text(value))
        if kind == "driver" {
            // The first driver URI bound becomes the driver's own.
            try connection.run("UPDATE drivers SET uuid = ? WHERE id = ? AND uuid IS NULL", .text(value), .integer(driver))
        }
    }

    /// Records an event for technicians (unknown tags, link errors, resets); past the
    /// retention policy's `eventLogMaxRows`, the oldest goes. `keepingAtMost`: a cap on the rows
    /// of this kind (the oldest of it go), so that a kind that can come all day (line noise)
    /// never pushes the other kinds out.
    public func logEvent(kind: String, detail: String, utcMs: Int64?, keepingAtMost kindCap: Int? = nil) throws(StoreError) {
        try write {
            try connection.run("INSERT INTO events (t_utc_ms, kind, detail) VALUES (?, ?, ?)", .optional(utcMs), .text(kind), .text(detail))
            if let kindCap {
                try connection.run(
                    "DELETE FROM events WHERE kind = ?1 AND id <= (SELECT id FROM events WHERE kind = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2)",
                    .text(kind), .int(max(1, kindCap)))
            }
            // By rows, not by ids: rows a kind's own cap removed leave room for the others.
            if try retention.eventLogMayExceedItsCap() { try retention.deleteEventsPastTheCap() }
        }
    }

    public func events(kind: String? = nil) throws(StoreError) -> [(utcMs: Int64?, kind: String, detail: String)] {
        try wrap { () throws(SQLiteError) in
            if let kind {
                return try connection.query("SELECT t_utc_ms, kind, detail FROM events WHERE kind = ? ORDER BY id", .text(kind)) {
                    ($0.optionalInt64(0), $0.text(1) ?? "", $0.text(2) ?? "")
                }
            }
            return try connection.query("SELECT t_utc_ms, kind, detail FROM events ORDER BY id") {
                ($0.optionalInt64(0), $0.text(1) ?? "", $0.text(2) ?? "")
            }
        }
    }
}

extension String {
    var trimmingWhitespace: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
