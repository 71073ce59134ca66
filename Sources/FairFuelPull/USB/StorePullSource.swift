import FairFuelCore
import FairFuelParsers
import FairFuelStore

/// Serves USB pull pages from a (read-only) store; the line formats are in docs/usb-pull-protocol.md.
///
/// Memory stays bounded: trips come a page at a time from SQL, and only the track being
/// pulled is held (one trip's points), then paged out.
public struct StorePullSource: PullDataSource {
    public let store: TripStore
    private var cachedTrack: (trip: Int64, points: [StoredTripPoint])?

    public init(store: TripStore) { self.store = store }

    public mutating func pairingSecret() -> PairingSecret? {
        guard let hex = try? store.pairingSecretHex() else { return nil }
        return PairingSecret(parsing: hex)
    }

    public mutating func page(for request: PullRequest) throws -> PullPage {
        let limit = Int(request.limit)
        var text: [UInt8] = []
        var records = 0
        var next = request.cursor
        var more = false
        func add(_ fields: [String], cursor: Int64) -> Bool {
            guard records < limit, records == 0 || text.count < PullPage.byteBudget else { more = true; return false }
            text.append(contentsOf: PullRecordLine.encode(fields).utf8)
            records += 1
            next = cursor
            return true
        }
        switch request.kind {
        case .vehicle:
            let v = try store.vehicle()
            if request.cursor == 0 {
                // Newer fields last: an older laptop reads the first five only. The time zone (empty until the
                // family set one), then the uplink's id, so that `family` knows a hub's copy of this car.
                var fields = [v.name, v.currency, String(v.currencyMinorDigits), v.units, v.fuelType, try store.vehicleUID() ?? ""]
                fields.append(v.timeZone != TimeZoneRules.utc.name ? v.timeZone : "")
                fields.append((try? store.vehicleUplinkID()) ?? "")
                _ = add(fields, cursor: 1)
            }
        case .drivers:
            for d in try store.drivers() where d.id.rawValue > request.cursor {
                let uuid = d.tags.lazy.compactMap { tag -> String? in
                    if case let .driver(uuid) = tag { return uuid.description.lowercased() }
                    return nil
                }.first ?? ""
                guard add([String(d.id.rawValue), d.name, uuid], cursor: d.id.rawValue) else { break }
            }
        case .trips:
            let sessions = try store.closedSessions(afterID: request.cursor, sinceUTCMs: request.sinceUTCMs, limit: limit + 1)
            for s in sessions {
                guard add(Self.tripFields(s), cursor: s.id.rawValue) else { break }
            }
        case .track:
            if cachedTrack?.trip != request.trip {
                cachedTrack = nil  // free the previous track before loading the next
                cachedTrack = (request.trip, try store.tripPoints(session: SessionID(request.trip)))
            }
            let points = cachedTrack!.points
            var index = Int(max(0, request.cursor))
            while index < points.count {
                let p = points[index]
                guard add([
                    String(p.utcMs), JSONLine.formatFixed(p.latitude, decimals: 7), JSONLine.formatFixed(p.longitude, decimals: 7),
                    JSONLine.formatFixed(p.speedMetersPerSecond, decimals: 2), JSONLine.formatFixed(p.distanceMeters, decimals: 1),
                    JSONLine.formatFixed(p.fuelLiters, decimals: 4),
                ], cursor: Int64(index + 1)) else { break }
                index += 1
            }
            if !more { cachedTrack = nil }
        case .splits:
            for split in try store.splits() where split.id > request.cursor {
                // A refuel's shares travel in one page (a refuel is one record).
                guard records < limit, records == 0 || text.count < PullPage.byteBudget else { more = true; break }
                for share in split.shares {
                    text.append(contentsOf: PullRecordLine.encode([
                        String(split.id), String(split.refuel.atUTCMs), JSONLine.formatFixed(split.refuel.liters, decimals: 3),
                        String(split.refuel.cost.value), split.refuel.fullTank ? "1" : "0", share.driver.map { String($0.rawValue) } ?? "",
                        share.driverName ?? "", JSONLine.formatFixed(share.fuelLiters, decimals: 3), String(share.cost.value),
                        // The bill's own currency, and whether the share is the baseline's (older laptops read nine fields).
                        split.refuel.currency ?? "", share.beforeTracking ? "1" : "0",
                    ]).utf8)
                }
                records += 1
                next = split.id
            }
        case .summary:
            // Small by nature (one line per driver): computed whole, served as one page.
            var rows: [String: (id: String, trips: Int, meters: Double, liters: Double, owes: Int64)] = [:]
            var order: [String] = []
            func touch(_ name: String, _ id: String) {
                if rows[name] == nil { rows[name] = (id, 0, 0, 0, 0); order.append(name) }
            }
            var after: Int64 = 0
            while true {
                let batch = try store.closedSessions(afterID: after, sinceUTCMs: request.sinceUTCMs, limit: 256)
                for s in batch {
                    let name = s.driver == nil ? "" : s.driverName
                    touch(name, s.driver.map { String($0.rawValue) } ?? "")
                    rows[name]!.trips += 1
                    rows[name]!.meters += s.distanceMeters
                    rows[name]!.liters += s.fuelLiters
                }
                guard let last = batch.last, batch.count == 256 else { break }
                after = last.id.rawValue
            }
            for split in try store.splits() {
                for share in split.shares {
                    let name = share.driverName ?? ""
                    touch(name, share.driver.map { String($0.rawValue) } ?? "")
                    rows[name]!.owes += Int64(share.cost.value)
                }
            }
            for name in order {
                let r = rows[name]!
                text.append(contentsOf: PullRecordLine.encode([
                    r.id, name, String(r.trips), JSONLine.formatFixed(r.meters, decimals: 1), JSONLine.formatFixed(r.liters, decimals: 3),
                    String(r.owes),
                ]).utf8)
                records += 1
            }
            next = 1
        }
        return PullPage(text: text, records: UInt16(records), nextCursor: next, more: more)
    }

    static func tripFields(_ s: StoredSession) -> [String] {
        func opt(_ v: Int64?) -> String { v.map { String($0) } ?? "" }
        return [
            String(s.id.rawValue), s.driver.map { String($0.rawValue) } ?? "", s.driverName, opt(s.startUTCMs), opt(s.endUTCMs),
            s.reportedEndReason ?? "", JSONLine.formatFixed(s.distanceMeters, decimals: 1), String(s.durationMs),
            String(s.movingMs), String(s.idleMs), JSONLine.formatFixed(s.maximumSpeedMetersPerSecond, decimals: 2),
            String(s.harshAccelerations), String(s.harshBrakings), JSONLine.formatFixed(s.fuelLiters, decimals: 4),
            opt(s.stoppedUTCMs), opt(s.driverLeftUTCMs),
        ]
    }
}
