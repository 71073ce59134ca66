import FairFuelCore
import FairFuelEdges
import FairFuelStore

extension HubCollector {
    /// One kept record as its line in `hub-records.tsv`.
    static func recordLine(_ r: Kept) -> String {
        PullRecordLine.encode([r.kind, String(r.id), String(r.revision), r.deleted ? "1" : "0", r.payload])
    }

    /// One car's kept records as a pull's state (`vehicle.tsv`, `drivers.tsv`, `trips.tsv`,
    /// `splits.tsv`): what a hub directory writes for the car and what the family's views read of a
    /// hub's database, in memory. `source` names the car in messages.
    static func carState(_ records: [Kept], vehicle: String, source: String) -> PulledCarState {
        // A record kept by a hub that did not check numbers yet is left out, as it would be refused now.
        let live = records.filter { !$0.deleted }.compactMap { r in
            JSONValue(r.payload).flatMap { Self.numberOutOfRange($0) == nil ? (r, $0) : nil }
        }
        let removedRefuels = Set(records.filter { $0.kind == "refuel" && $0.deleted }.map(\.id))
        // The newest message's vehicle name and the newest bill's currency describe the car.
        let newest = live.max { ($0.1["message_id"]?.int ?? 0) < ($1.1["message_id"]?.int ?? 0) }
        let name = live.filter { $0.1["vehicle_name"]?.string != nil }.max { ($0.1["message_id"]?.int ?? 0) < ($1.1["message_id"]?.int ?? 0) }?
            .1["vehicle_name"]?.string ?? newest?.1["vehicle"]?.string ?? vehicle
        let currency = HubCarCurrency.newest(live) ?? "EUR"
        let digits = VehicleProfile.minorDigits(ofCurrency: currency) ?? 2
        // Sent only by a car whose family set a time zone; the newest message's is the car's.
        let timeZone = live.filter { $0.1["vehicle_time_zone"]?.string != nil }
            .max { ($0.1["message_id"]?.int ?? 0) < ($1.1["message_id"]?.int ?? 0) }?.1["vehicle_time_zone"]?.string

        // Drivers get this car's own ids, one per name and uuid, in the order they first appear.
        var driverIDs: [String: Int64] = [:]
        var drivers = ""
        func driverID(_ name: String?, _ uuid: String?) -> String {
            guard let name else { return "" }
            let key = name + "\u{1F}" + (uuid?.lowercased() ?? "")
            if let id = driverIDs[key] { return String(id) }
            let id = Int64(driverIDs.count + 1)
            driverIDs[key] = id
            drivers += PullRecordLine.encode([String(id), name, uuid?.lowercased() ?? ""])
            return String(id)
        }
        func ms(_ value: JSONValue?) -> String {
            guard let text = value?.string, let instant = try? ISO8601.parse(text) else { return "" }
            return String(instant.millisecondsSinceEpoch)
        }

        var trips = ""
        for (r, j) in live where r.kind == "trip" {
            let driver = j["driver"]?.string
            let meters = j["distance_m"]?.double ?? (j["distance_km"]?.double ?? 0) * 1000
            let liters = j["fuel_ml"]?.double.map { $0 / 1000 } ?? j["fuel_l"]?.double ?? 0
            // `<name>_ms` from newer cars (a pull's resolution), `<name>_s` from older ones.
            func milliseconds(_ name: String) -> String { String(j[name + "_ms"]?.int ?? (j[name + "_s"]?.int ?? 0) * 1000) }
            trips += PullRecordLine.encode([
                String(r.id), driverID(driver, j["driver_uuid"]?.string), driver ?? "", ms(j["start_utc"]), ms(j["end_utc"]),
                j["end_reason"]?.string ?? "", JSONLine.formatFixed(meters, decimals: 1), milliseconds("duration"),
                milliseconds("moving"), milliseconds("idle"),
                JSONLine.formatFixed(j["max_speed_mps"]?.double ?? (j["max_speed_kmh"]?.double ?? 0) / 3.6, decimals: 2), String(j["harsh_accel"]?.int ?? 0),
                String(j["harsh_brake"]?.int ?? 0), JSONLine.formatFixed(liters, decimals: 4), ms(j["stopped_utc"]), ms(j["driver_left_utc"]),
            ])
        }
        var splits = ""
        for (r, j) in live where r.kind == "split" && !removedRefuels.contains(r.id) {
            for share in j["shares"]?.array ?? [] {
                let before = share["before_tracking"]?.bool == true
                let driver = share["driver"]?.string
                splits += PullRecordLine.encode([
                    String(r.id), ms(j["at_utc"]), JSONLine.formatFixed(j["liters"]?.double ?? 0, decimals: 3), String(j["cost_cents"]?.int ?? 0),
                    j["full"]?.bool == true ? "1" : "0", before ? "" : driverID(driver, share["driver_uuid"]?.string), driver ?? "",
                    JSONLine.formatFixed(share["fuel_l"]?.double ?? 0, decimals: 3), String(share["cost_cents"]?.int ?? 0),
                    j["currency"]?.string ?? "", before ? "1" : "0",
                ])
            }
        }
        // A newer car's messages carry the id its USB pull carries (`vehicle_uid`): the line then has it as a
        // pull's, the topic's id last, so that `family` knows the car's pull and the hub's copy for one car.
        // An older car's line is what it always was (the topic's id as its only id).
        let vehicleUID = live.filter { Self.isPlainID($0.1["vehicle_uid"]?.string) }
            .max { ($0.1["message_id"]?.int ?? 0) < ($1.1["message_id"]?.int ?? 0) }?.1["vehicle_uid"]?.string
        var vehicleLine = [name, currency, String(digits), "metric", "", vehicleUID ?? vehicle]
        if let vehicleUID {
            vehicleLine += [timeZone ?? "", vehicle]
        } else if let timeZone {
            vehicleLine.append(timeZone)
        }
        return PulledCarState(
            source: source, isHubCopy: true, vehicle: PullRecordLine.encode(vehicleLine), drivers: drivers, trips: trips, splits: splits)
    }

    /// Every car of a hub's database as a pull's state, read in one pass over its rows.
    static func carStates(_ database: any HubRecordStoring) throws(PullClientError) -> [PulledCarState] {
        do {
            return try database.vehicles().filter { isPlainID($0) }.map { vehicle in
                let records = try database.records(vehicle: vehicle).map { record in
                    Kept(kind: record.kind, id: record.id, revision: record.revision, deleted: record.deleted, payload: record.payload)
                }.sorted { ($0.kind, $0.id) < ($1.kind, $1.id) }
                return carState(records, vehicle: vehicle, source: database.location + " (car " + vehicle + ")")
            }
        } catch {
            throw .file("hub database \(database.location): \(error)")
        }
    }
}
