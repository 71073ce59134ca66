import FairFuelConfiguration
import FairFuelCore
import FairFuelParsers
import FairFuelStore

/// What an import changed, a line per driver or conflict, and a summary.
public struct ProvisioningImportReport: Sendable, Equatable {
    public var lines: [String] = []
    public var added = 0
    /// Removed drivers the bundle brought back, with their history (as `provision driver add` does).
    public var restored = 0
    public var renamed = 0
    public var updated = 0
    public var unchanged = 0
    public var conflicts = 0
    public var vehicleChanged = false

    public var changed: Bool { added + restored + renamed + updated > 0 || vehicleChanged }

    /// The lines, then `nothing changed` or the counts.
    public var text: String {
        let summary = changed
            ? "\(added) added, " + (restored > 0 ? "\(restored) brought back, " : "") + "\(renamed) renamed, \(updated) updated, \(unchanged) unchanged, \(conflicts) conflict(s)"
            : "nothing changed" + (conflicts > 0 ? " (\(conflicts) conflict(s) left as they are)" : "")
        return (lines + [summary]).joined(separator: "\n") + "\n"
    }
}

extension ProvisioningBundle {
    /// Brings the store's provisioning up to the bundle: adds drivers (a removed driver of the same
    /// name is brought back with their history, as `provision driver add` does), renames a driver found by
    /// its URI id under another name, binds missing tags and beacons, sets the vehicle. Nothing is
    /// removed, and a tag or beacon bound to someone else here stays theirs (a conflict). Applying
    /// the same bundle twice changes nothing the second time.
    ///
    /// All or nothing: the import is one store transaction, so a driver the store refuses leaves
    /// every other change undone too; the error names that driver and their line in the bundle.
    public func apply(to store: TripStore) throws(StoreError) -> ProvisioningImportReport {
        try store.write(durable: true) { () throws(StoreError) -> ProvisioningImportReport in try applyInTransaction(to: store) }
    }

    private func applyInTransaction(to store: TripStore) throws(StoreError) -> ProvisioningImportReport {
        var report = ProvisioningImportReport()
        for driver in drivers {
            do {
                try apply(driver, to: store, report: &report)
            } catch {
                throw .invalid((driver.line > 0 ? "line \(driver.line): " : "") + "driver \(driver.name): \(error); nothing was imported")
            }
        }
        if var vehicle {
            var current = try store.vehicle()
            if vehicle.timeZone.isEmpty { vehicle.timeZone = current.timeZone }
            if vehicle.currencyMinorDigits != current.currencyMinorDigits, try !store.refuels().isEmpty {
                // Refuel costs are stored in minor units: other decimals would misread them.
                report.conflicts += 1
                report.lines.append("conflict: currency \(vehicle.currency) has \(vehicle.currencyMinorDigits) decimals and this car's refuels are in \(current.currency) (\(current.currencyMinorDigits)); currency left as is")
                vehicle.currency = current.currency
                vehicle.currencyMinorDigits = current.currencyMinorDigits
            }
            let differences = Self.differences(from: current, to: vehicle)
            if differences.isEmpty {
                report.lines.append("unchanged vehicle \(current.name)")
            } else {
                let scale = current.fuelScale
                current = vehicle
                current.fuelScale = scale
                try store.setVehicle(current)
                report.vehicleChanged = true
                report.lines.append("vehicle: " + differences.joined(separator: ", "))
            }
        }
        return report
    }

    /// Brings one driver of the bundle into the store (inside `applyInTransaction`'s transaction).
    private func apply(_ driver: Driver, to store: TripStore, report: inout ProvisioningImportReport) throws(StoreError) {
        let current = try store.drivers()
        let existing = driver.uuid.flatMap { uuid in current.first { $0.uuid == uuid } }
            ?? current.first { $0.name.lowercased() == driver.name.lowercased() }
        /// The identities of `identities` that no one else holds here; each other one is a conflict left as is.
        func unclaimed<Identity>(
            _ identities: [Identity], _ kind: String, _ text: (Identity) -> String, owner: (Identity) throws(StoreError) -> (id: DriverID, name: String)?
        ) throws(StoreError) -> [Identity] {
            var free: [Identity] = []
            for identity in identities {
                if let holder = try owner(identity), holder.id != existing?.id {
                    report.conflicts += 1
                    report.lines.append("conflict: \(kind) \(text(identity)) is bound to \(holder.name) here; the bundle gives it to \(driver.name) (left as is)")
                } else {
                    free.append(identity)
                }
            }
            return free
        }
        let tags = try unclaimed(driver.tags, "tag", \.provisioningText) { (tag) throws(StoreError) in try store.owner(of: tag) }
        let beacons = try unclaimed(driver.beacons, "beacon", \.spec) { (beacon) throws(StoreError) in try store.owner(of: beacon) }
        guard let existing else {
            if current.count >= TripStore.maximumDrivers {
                report.conflicts += 1
                report.lines.append("conflict: driver \(driver.name) not added: this vehicle already has \(TripStore.maximumDrivers) drivers")
                return
            }
            let (id, restored) = try store.addOrRestoreDriver(name: driver.name, contact: driver.contact, tags: tags, beacons: beacons)
            if let uuid = driver.uuid, !current.contains(where: { $0.uuid == uuid }) { _ = try store.driverUUID(for: id) { uuid } }
            if let restored {
                report.restored += 1
                report.lines.append(
                    "brought back driver \(restored.name) (removed earlier; their past trips and bills are theirs as before) "
                        + "(\(tags.count) tag(s), \(beacons.count) beacon(s))")
            } else {
                report.added += 1
                report.lines.append("added driver \(driver.name) (\(tags.count) tag(s), \(beacons.count) beacon(s))")
            }
            return
        }
        var changes: [String] = []
        if existing.name != driver.name {
            if let other = current.first(where: { $0.id != existing.id && $0.name.lowercased() == driver.name.lowercased() }) {
                report.conflicts += 1
                report.lines.append("conflict: \(existing.name) has \(driver.name)'s id but the name \(other.name) is taken here (not renamed)")
            } else {
                _ = try store.renameDriver(named: existing.name, to: driver.name)
                report.renamed += 1
                report.lines.append("renamed driver \(existing.name) -> \(driver.name)")
            }
        }
        if let contact = driver.contact, contact != existing.contact {
            try store.setContact(contact, driver: existing.id)
            changes.append("contact")
        }
        if let uuid = driver.uuid, existing.uuid == nil, !current.contains(where: { $0.uuid == uuid }) {
            _ = try store.driverUUID(for: existing.id) { uuid }
            changes.append("uuid")
        }
        for tag in tags where try store.bind(tag: tag, to: existing.id) { changes.append("tag \(tag.provisioningText)") }
        for beacon in beacons where try store.bind(beacon: beacon, to: existing.id) { changes.append("beacon \(beacon.spec)") }
        if !changes.isEmpty {
            report.updated += 1
            report.lines.append("updated driver \(driver.name): \(changes.joined(separator: ", "))")
        } else if existing.name == driver.name {
            report.unchanged += 1
            report.lines.append("unchanged driver \(driver.name)")
        }
    }

    static func differences(from a: VehicleProfile, to b: VehicleProfile) -> [String] {
        var out: [String] = []
        func check<T: Equatable>(_ name: String, _ x: T, _ y: T) { if x != y { out.append("\(name) \(x) -> \(y)") } }
        check("name", a.name, b.name)
        check("l_per_100km", a.ratedLitersPer100km, b.ratedLitersPer100km)
        check("mass_kg", a.massKilograms, b.massKilograms)
        check("idle_l_per_h", a.idleLitersPerHour, b.idleLitersPerHour)
        check("fuel", a.fuelType, b.fuelType)
        check("tank_l", a.tankLiters, b.tankLiters)
        check("currency", a.currency, b.currency)
        check("units", a.units, b.units)
        check("untracked", a.untrackedPolicy.rawValue, b.untrackedPolicy.rawValue)
        check("time_zone", a.timeZone, b.timeZone)
        return out
    }
}
