import FairFuelReports


/// Record lines of a pull (docs/usb-pull-protocol.md) read back into the export types.
enum PulledRecords {
    static func trip(_ f: [String]) throws(PullClientError) -> TripRow {
        guard f.count >= 16, let id = Int64(f[0]), let meters = Double(f[6]), let duration = Int64(f[7]),
              let moving = Int64(f[8]), let idle = Int64(f[9]), let speed = Double(f[10]), let accel = Int(f[11]),
              let brake = Int(f[12]), let liters = Double(f[13])
        else { throw .badRecord(kind: "trip", line: f.joined(separator: " ")) }
        return TripRow(
            id: id, driverID: Int64(f[1]), driverName: f[2], startUTCMs: Int64(f[3]), endUTCMs: Int64(f[4]),
            endReason: f[5].isEmpty ? nil : f[5], distanceMeters: meters, durationMs: duration, movingMs: moving, idleMs: idle,
            harshAccelerations: accel, harshBrakings: brake, maximumSpeedMetersPerSecond: speed, fuelLiters: liters,
            stoppedUTCMs: Int64(f[14]), driverLeftUTCMs: Int64(f[15]))
    }

    static func trackPoint(_ f: [String]) throws(PullClientError) -> TrackPoint {
        guard f.count >= 4, let t = Int64(f[0]), let lat = Double(f[1]), let lon = Double(f[2]), let speed = Double(f[3]) else {
            throw .badRecord(kind: "track", line: f.joined(separator: " "))
        }
        return TrackPoint(utcMs: t, latitude: lat, longitude: lon, speedMetersPerSecond: speed)
    }

    /// A refuel share: refuel id, time, litres, bill, full, driver id, driver name, share litres, share cost,
    /// then (from newer dongles) the bill's currency and whether it is the baseline's before-tracking share.
    struct Share: Equatable {
        var refuelID: Int64
        var atUTCMs: Int64
        var liters: Double
        var costMinor: Int64
        var fullTank: Bool
        var driverID: Int64?
        var driverName: String
        var shareLiters: Double
        var shareMinor: Int64
        var currency: String? = nil
        var beforeTracking = false
    }

    static func share(_ f: [String]) throws(PullClientError) -> Share {
        guard f.count >= 9, let id = Int64(f[0]), let at = Int64(f[1]), let liters = Double(f[2]), let cost = Int64(f[3]),
              let shareLiters = Double(f[7]), let shareMinor = Int64(f[8])
        else { throw .badRecord(kind: "split", line: f.joined(separator: " ")) }
        return Share(refuelID: id, atUTCMs: at, liters: liters, costMinor: cost, fullTank: f[4] == "1", driverID: Int64(f[5]),
                     driverName: f[6], shareLiters: shareLiters, shareMinor: shareMinor,
                     currency: f.count >= 10 && !f[9].isEmpty ? f[9] : nil, beforeTracking: f.count >= 11 && f[10] == "1")
    }

    /// The vehicle line: name, currency, minor digits, units, fuel type, unique id (from newer dongles),
    /// time zone (empty or missing until the family set one), the uplink's vehicle id (newer dongles).
    struct Vehicle: Equatable {
        var name: String
        var currency: String
        var minorDigits: Int
        var units: String
        var uid: String? = nil
        var timeZone: String? = nil
        /// The id of the car's MQTT topics (`fairfuel/<id>/`): a hub's directory of the car is named by it.
        var uplinkID: String? = nil

        /// The ids the car is known by: one shared with another directory's makes them the same car.
        var identities: [String] {
            var ids: [String] = []
            for id in [uid, uplinkID].compactMap({ $0 }) where !ids.contains(id) { ids.append(id) }
            return ids
        }
    }

    static func vehicle(_ f: [String]) throws(PullClientError) -> Vehicle {
        guard f.count >= 4, let digits = Int(f[2]) else { throw .badRecord(kind: "vehicle", line: f.joined(separator: " ")) }
        return Vehicle(
            name: f[0], currency: f[1], minorDigits: digits, units: f[3], uid: f.count >= 6 && !f[5].isEmpty ? f[5].lowercased() : nil,
            timeZone: f.count >= 7 && !f[6].isEmpty ? f[6] : nil, uplinkID: f.count >= 8 && !f[7].isEmpty ? f[7].lowercased() : nil)
    }

    /// Lines of a raw file kept in the pull's state directory.
    static func lines(_ text: String?) -> [[String]] {
        guard let text else { return [] }
        return PullRecordLine.decode(Array(text.utf8))
    }
}
