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
        guard try provisioning.currentDriverCount() < Self.maximumDrivers else {
            throw .invalid("this vehicle already has \(Self.maximumDrivers) drivers")
        }
        if try provisioning.currentDriverID(named: trimmed) != nil {
            throw .invalid("a driver named '\(trimmed)' already exists")
        }
        try provisioning.requireUnbound(tags: tags, beacons: beacons)
        return try write {
            let id = try provisioning.insertDriver(name: trimmed, contact: contact)
            try provisioning.bind(tags: tags, beacons: beacons, to: id)
            return id
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
        guard try provisioning.currentDriverCount() < Self.maximumDrivers else {
            throw .invalid("this vehicle already has \(Self.maximumDrivers) drivers")
        }
        if try provisioning.currentDriverID(named: record.name) != nil {
            throw .invalid("a driver named '\(record.name)' already exists")
        }
        try provisioning.requireUnbound(tags: tags, beacons: beacons)
        try write {
            try provisioning.markRestored(driver, contact: contact)
            try provisioning.bind(tags: tags, beacons: beacons, to: driver)
        }
    }

    /// Adds a driver, or brings back the latest removed driver of that name (any case) with their
    /// past trips and bills, unless `newPerson` says it is someone else of that name. How both
    /// `provision driver add` and a bundle import add a driver. `restored`: the driver brought back
    /// (as they were when removed), nil when added.
    public func addOrRestoreDriver(
        name: String, contact: String? = nil, tags: [TagIdentity], beacons: [BeaconIdentity], newPerson: Bool = false
    ) throws(StoreError) -> (id: DriverID, restored: DriverRecord?) {
        if !newPerson, try provisioning.currentDriverID(named: name) == nil, let removed = try removedDriver(named: name) {
            try restoreDriver(removed.id, contact: contact, tags: tags, beacons: beacons)
            return (removed.id, removed)
        }
        return (try addDriver(name: name, contact: contact, tags: tags, beacons: beacons), nil)
    }

    /// Current drivers (and removed ones when asked), in the order they were added.
    public func drivers(includingRemoved: Bool = false) throws(StoreError) -> [DriverRecord] {
        try provisioning.drivers(includingRemoved: includingRemoved)
    }

    /// The current driver called `name` (any case).
    public func driver(named name: String) throws(StoreError) -> DriverRecord? {
        guard let id = try provisioning.currentDriverID(named: name) else { return nil }
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
        try write { try provisioning.markRemoved(record.id) }
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
        if let other = try provisioning.currentDriverID(named: trimmed), other != record.id {
            throw .invalid("a driver named '\(trimmed)' already exists")
        }
        guard trimmed != record.name else { return record }
        try write {
            let renamed = try provisioning.rename(record.id, to: trimmed)
            for trip in renamed.trips { try enqueueTripMessage(session: trip) }
            try enqueueSplitMessages(refuels: renamed.bills)
        }
        return record
    }

    /// Sets or clears a driver's contact.
    public func setContact(_ contact: String?, driver: DriverID) throws(StoreError) {
        try write { try provisioning.setContact(contact, driver: driver) }
    }

    /// Binds a tag to a driver: false when it already was theirs; an error naming the owner when it is someone else's.
    @discardableResult
    public func bind(tag: TagIdentity, to driver: DriverID) throws(StoreError) -> Bool {
        if let owner = try owner(of: tag) {
            if owner.id == driver { return false }
            throw .invalid("tag \(tag) is already bound to \(owner.name)")
        }
        try write { try provisioning.insert(tag, driver: driver) }
        return true
    }

    /// Binds a beacon to a driver: false when it already was theirs; an error naming the owner when it is someone else's.
    @discardableResult
    public func bind(beacon: BeaconIdentity, to driver: DriverID) throws(StoreError) -> Bool {
        if let owner = try owner(of: beacon) {
            if owner.id == driver { return false }
            throw .invalid("beacon \(beacon.spec) is already bound to \(owner.name)")
        }
        try write { try provisioning.insert(beacon, driver: driver) }
        return true
    }

    /// The driver a tag is bound to.
    public func owner(of tag: TagIdentity) throws(StoreError) -> (id: DriverID, name: String)? {
        try provisioning.owner(of: tag)
    }

    /// The driver a beacon is bound to.
    public func owner(of beacon: BeaconIdentity) throws(StoreError) -> (id: DriverID, name: String)? {
        try provisioning.owner(of: beacon)
    }

    /// The driver's URI id: the stored one, else `make()`'s, stored (so every tag written for them carries the same URI).
    public func driverUUID(for driver: DriverID, make: () -> UUID128) throws(StoreError) -> UUID128 {
        if let uuid = try provisioning.storedUUID(of: driver) { return uuid }
        let uuid = make()
        try write { try provisioning.setUUID(uuid, driver: driver) }
        return uuid
    }

    /// The provisioning as the domain looks it up (current drivers only).
    public func directory() throws(StoreError) -> DriverDirectory {
        try provisioning.directory()
    }

    public func driverID(named name: String) throws(StoreError) -> DriverID? {
        try provisioning.currentDriverID(named: name)
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
