import FairFuelCore
import FairFuelStore

/// The currency of a car's bills as the hub holds them (its refuels' and splits' `currency`, the
/// newest message's): what a correction's cost is read in (`HubCommandWords`), and what the
/// family's views show the car in. Nil when the hub holds no bill of the car.
public enum HubCarCurrency {
    /// The newest bill's currency among the live records and their payloads.
    static func newest(_ live: [(HubCollector.Kept, JSONValue)]) -> String? {
        live.filter { $0.0.kind != "trip" && $0.1["currency"]?.string != nil }
            .max { ($0.1["message_id"]?.int ?? 0) < ($1.1["message_id"]?.int ?? 0) }?.1["currency"]?.string
    }

    /// `vehicle`'s currency in a hub's database.
    public static func of(vehicle: String, database: any HubRecordStoring) throws(PullClientError) -> String? {
        let records: [HubRecord]
        do { records = try database.records(vehicle: vehicle) } catch { throw .file("hub database \(database.location): \(error)") }
        return newest(records.filter { !$0.deleted && $0.kind != "trip" }.compactMap { record in
            JSONValue(record.payload).map { (HubCollector.Kept(kind: record.kind, id: record.id, revision: record.revision, deleted: false, payload: record.payload), $0) }
        })
    }

    /// `vehicle`'s currency in a hub's directory (`fairfuel hub --dir`).
    public static func of(vehicle: String, directory: String) throws(PullClientError) -> String? {
        guard HubCollector.isPlainID(vehicle) else { return nil }
        let path = directory + "/" + vehicle + "/" + PullDownload.stateDirectoryName + "/" + HubCollector.recordsName
        return newest(PulledRecords.lines(try PullFiles.read(path)).compactMap { f in
            guard f.count >= 5, f[0] != "trip", f[3] != "1", let json = JSONValue(f[4]) else { return nil }
            return (HubCollector.Kept(kind: f[0], id: Int64(f[1]) ?? 0, revision: Int64(f[2]) ?? 0, deleted: false, payload: f[4]), json)
        })
    }
}
