import FairFuelCore
import FairFuelDomain
import FairFuelParsers
import FairFuelSQLite

/// Drivers with their tags and beacons: the queries of provisioning, and the rows it writes
/// inside the caller's transaction (`TripStore.write`; the checks and the uplink stay there).
public struct ProvisioningRepository {
    let database: StoreDatabase

    init(database: StoreDatabase) {
        self.database = database
    }

    private var connection: SQLiteConnection { database.connection }

    /// Current drivers (and removed ones when asked), in the order they were added.
    func drivers(includingRemoved: Bool) throws(StoreError) -> [DriverRecord] {
        do {
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
        } catch { throw .sqlite(error) }
    }

    /// How many drivers are current (not removed).
    func currentDriverCount() throws(StoreError) -> Int64 {
        do { return try connection.scalarInt("SELECT COUNT(*) FROM drivers WHERE removed = 0") ?? 0 } catch { throw .sqlite(error) }
    }

    /// The current driver called `name` (surrounding white space aside).
    func currentDriverID(named name: String) throws(StoreError) -> DriverID? {
        do {
            return try connection.scalarInt("SELECT id FROM drivers WHERE name = ? AND removed = 0", .text(name.trimmingWhitespace))
                .map(DriverID.init)
        } catch { throw .sqlite(error) }
    }

    /// The driver a tag is bound to.
    func owner(of tag: TagIdentity) throws(StoreError) -> (id: DriverID, name: String)? {
        let (kind, value) = tag.storeColumns
        do {
            return try connection.query(
                "SELECT d.id, d.name FROM driver_tags t JOIN drivers d ON d.id = t.driver_id WHERE t.kind = ? AND t.value = ?",
                .text(kind), .text(value)
            ) { (DriverID($0.int64(0)), $0.text(1) ?? "") }.first
        } catch { throw .sqlite(error) }
    }

    /// The driver a beacon is bound to.
    func owner(of beacon: BeaconIdentity) throws(StoreError) -> (id: DriverID, name: String)? {
        do {
            return try connection.query(
                "SELECT d.id, d.name FROM driver_beacons b JOIN drivers d ON d.id = b.driver_id WHERE b.spec = ?", .text(beacon.spec)
            ) { (DriverID($0.int64(0)), $0.text(1) ?? "") }.first
        } catch { throw .sqlite(error) }
    }

    /// A clear error when a tag or beacon is given twice or already bound to someone.
    func requireUnbound(tags: [TagIdentity], beacons: [BeaconIdentity]) throws(StoreError) {
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

    /// The driver's stored URI id; nil when none was made yet.
    func storedUUID(of driver: DriverID) throws(StoreError) -> UUID128? {
        do {
            return try connection.scalarText("SELECT uuid FROM drivers WHERE id = ?", .integer(driver.rawValue)).flatMap { UUID128($0) }
        } catch { throw .sqlite(error) }
    }

    /// The provisioning as the domain looks it up (current drivers only).
    func directory() throws(StoreError) -> DriverDirectory {
        var directory = DriverDirectory()
        for record in try drivers(includingRemoved: false) {
            directory.addDriver(.init(id: record.id, name: record.name))
            for tag in record.tags { directory.bind(tag: tag, to: record.id) }
            for beacon in record.beacons { directory.bind(beacon: beacon, to: record.id) }
        }
        return directory
    }

    // The writes below run inside the caller's transaction.

    /// Inserts a driver; returns their id.
    func insertDriver(name: String, contact: String?) throws(SQLiteError) -> DriverID {
        try connection.run("INSERT INTO drivers (name, contact) VALUES (?, ?)", .text(name), .optional(contact))
        return DriverID(connection.lastInsertRowID)
    }

    /// Makes a removed driver current again, their contact replaced when one is given.
    func markRestored(_ driver: DriverID, contact: String?) throws(SQLiteError) {
        try connection.run(
            "UPDATE drivers SET removed = 0, contact = COALESCE(?, contact) WHERE id = ?", .optional(contact), .integer(driver.rawValue))
    }

    /// Frees a driver's tags and beacons and marks them removed.
    func markRemoved(_ driver: DriverID) throws(SQLiteError) {
        try connection.run("DELETE FROM driver_tags WHERE driver_id = ?", .integer(driver.rawValue))
        try connection.run("DELETE FROM driver_beacons WHERE driver_id = ?", .integer(driver.rawValue))
        try connection.run("UPDATE drivers SET removed = 1 WHERE id = ?", .integer(driver.rawValue))
    }

    /// Binds `tags` and `beacons` to a driver.
    func bind(tags: [TagIdentity], beacons: [BeaconIdentity], to driver: DriverID) throws(SQLiteError) {
        for tag in tags { try insert(tag, driver: driver) }
        for beacon in beacons { try insert(beacon, driver: driver) }
    }

    /// Binds a tag; the first driver URI bound becomes the driver's own.
    func insert(_ tag: TagIdentity, driver: DriverID) throws(SQLiteError) {
        let (kind, value) = tag.storeColumns
        try connection.run(
            "INSERT INTO driver_tags (driver_id, kind, value) VALUES (?, ?, ?)", .integer(driver.rawValue), .text(kind), .text(value))
        if kind == "driver" {
            try connection.run("UPDATE drivers SET uuid = ? WHERE id = ? AND uuid IS NULL", .text(value), .integer(driver.rawValue))
        }
    }

    /// Binds a beacon.
    func insert(_ beacon: BeaconIdentity, driver: DriverID) throws(SQLiteError) {
        try connection.run("INSERT INTO driver_beacons (driver_id, spec) VALUES (?, ?)", .integer(driver.rawValue), .text(beacon.spec))
    }

    /// Sets or clears a driver's contact.
    func setContact(_ contact: String?, driver: DriverID) throws(SQLiteError) {
        try connection.run("UPDATE drivers SET contact = ? WHERE id = ?", .optional(contact), .integer(driver.rawValue))
    }

    /// Stores a driver's URI id.
    func setUUID(_ uuid: UUID128, driver: DriverID) throws(SQLiteError) {
        try connection.run("UPDATE drivers SET uuid = ? WHERE id = ?", .text(uuid.description.lowercased()), .integer(driver.rawValue))
    }

    /// Renames a driver, with the name their trips and shares of bills carry; returns their
    /// closed trips and the bills they share, whose uplink messages the caller queues again.
    func rename(_ driver: DriverID, to name: String) throws(SQLiteError) -> (trips: [Int64], bills: Set<Int64>) {
        let id = SQLiteValue.integer(driver.rawValue)
        try connection.run("UPDATE drivers SET name = ? WHERE id = ?", .text(name), id)
        try connection.run("UPDATE sessions SET driver_name = ? WHERE driver_id = ?", .text(name), id)
        try connection.run("UPDATE refuel_shares SET driver_name = ? WHERE driver_id = ?", .text(name), id)
        let trips = try connection.query("SELECT id FROM sessions WHERE driver_id = ? AND end_reason IS NOT NULL ORDER BY id", id) {
            $0.int64(0)
        }
        let bills = try connection.query("SELECT DISTINCT refuel_id FROM refuel_shares WHERE driver_id = ?", id) { $0.int64(0) }
        return (trips, Set(bills))
    }
}
