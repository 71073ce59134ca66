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
    /// Adds a driver with tags and beacons; a name, tag or beacon already taken is refused and nothing changes.
    @discardableResult
    public func addDriver(name: String, contact: String? = nil, tags: [TagIdentity], beacons: [BeaconIdentity]) throws(StoreError) -> DriverID {
        let trimmed = name.trimmingWhitespace
        guard !trimmed.isEmpty else { throw .invalid("a driver needs a name") }
        let count = try wrap { () throws(SQLiteError) in try connection.scalarInt("SELECT COUNT(*) FROM drivers") } ?? 0
        guard count < 64 else { throw .invalid("this vehicle already has 64 drivers") }
        if try wrap({ () throws(SQLiteError) in try connection.scalarInt("SELECT id FROM drivers WHERE name = ?", .text(trimmed)) }) != nil {
            throw .invalid("a driver named '\(trimmed)' already exists")
        }
        for tag in tags {
            let (kind, value) = tag.storeColumns
            if let owner = try wrap({ () throws(SQLiteError) in
                try connection.scalarText(
                    "SELECT d.name FROM driver_tags t JOIN drivers d ON d.id = t.driver_id WHERE t.kind = ? AND t.value = ?",
                    .text(kind), .text(value))
            }) {
                throw .invalid("tag \(tag) is already bound to \(owner)")
            }
        }
        for beacon in beacons {
            if let owner = try wrap({ () throws(SQLiteError) in
                try connection.scalarText(
                    "SELECT d.name FROM driver_beacons b JOIN drivers d ON d.id = b.driver_id WHERE b.spec = ?", .text(beacon.spec))
            }) {
                throw .invalid("beacon \(beacon.spec) is already bound to \(owner)")
            }
        }
        return try write {
            try connection.run("INSERT INTO drivers (name, contact) VALUES (?, ?)", .text(trimmed), .optional(contact))
            let id = connection.lastInsertRowID
            for tag in tags {
                let (kind, value) = tag.storeColumns
                try connection.run("INSERT INTO driver_tags (driver_id, kind, value) VALUES (?, ?, ?)", .integer(id), .text(kind), .text(value))
            }
            for beacon in beacons {
                try connection.run("INSERT INTO driver_beacons (driver_id, spec) VALUES (?, ?)", .integer(id), .text(beacon.spec))
            }
            return DriverID(id)
        }
    }

    public func drivers() throws(StoreError) -> [DriverRecord] {
        try wrap { () throws(SQLiteError) in
            var records = try connection.query("SELECT id, name, contact FROM drivers ORDER BY id") { row in
                DriverRecord(id: DriverID(row.int64(0)), name: row.text(1) ?? "", contact: row.text(2), tags: [], beacons: [])
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

    /// The provisioning as the domain looks it up.
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
        try wrap { () throws(SQLiteError) in
            try connection.scalarInt("SELECT id FROM drivers WHERE name = ?", .text(name.trimmingWhitespace)).map(DriverID.init)
        }
    }

    /// Records an event for technicians (unknown tags, link errors, resets); past the
    /// retention policy's `eventLogMaxRows`, the oldest goes.
    public func logEvent(kind: String, detail: String, utcMs: Int64?) throws(StoreError) {
        let cap = Int64(max(1, configuration.retention.eventLogMaxRows))
        try write {
            try connection.run("INSERT INTO events (t_utc_ms, kind, detail) VALUES (?, ?, ?)", .optional(utcMs), .text(kind), .text(detail))
            try connection.run("DELETE FROM events WHERE id <= ?", .integer(connection.lastInsertRowID - cap))
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
