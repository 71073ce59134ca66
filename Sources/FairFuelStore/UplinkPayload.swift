import FairFuelCore

/// The uplink's record messages as JSON (docs/mqtt.md, payload version 1): the one place their
/// fields are written. Plain values in, text out; the store gathers the values and queues the
/// bytes in the record's own transaction (`TripStore+Uplink.swift`).
public enum UplinkPayload {
    /// The payload version every message carries as `v`.
    public static let version = 1

    /// What every record message opens with, besides `v` and `message_id`.
    public struct Envelope: Sendable, Equatable {
        /// The vehicle's id in topics (`TripStore.vehicleUplinkID()`).
        public var vehicle: String
        /// The id a USB pull carries, so that a hub's copy of this car and its pull are one car.
        public var vehicleUID: String?
        public var vehicleName: String?
        /// Carried only once the family set a zone other than UTC.
        public var vehicleTimeZone: String?
        public var recordID: Int64
        public var revision: Int64

        public init(
            vehicle: String, vehicleUID: String?, vehicleName: String?, vehicleTimeZone: String?, recordID: Int64, revision: Int64
        ) {
            self.vehicle = vehicle
            self.vehicleUID = vehicleUID
            self.vehicleName = vehicleName
            self.vehicleTimeZone = vehicleTimeZone
            self.recordID = recordID
            self.revision = revision
        }
    }

    /// The positions a trip message carries (`OutboxPositions`), as the store read them.
    public enum TripPositions: Sendable {
        case none
        /// The first and last kept point; nil when the trip kept none.
        case summary(first: StoredTripPoint?, last: StoredTripPoint?)
        case track([StoredTripPoint])
    }

    /// The whole message: the envelope, then `fields` (`{...envelope` + `,` + `fields...}`).
    public static func message(_ envelope: Envelope, messageID: OutboxMessageID, fields: JSONLine) -> [UInt8] {
        var json = JSONLine()
        json.add("v", version)
        json.add("message_id", messageID.rawValue)
        json.add("vehicle", envelope.vehicle)
        if let uid = envelope.vehicleUID { json.add("vehicle_uid", uid) }
        json.add("vehicle_name", envelope.vehicleName)
        // Only once the family set one: a UTC car's messages are what they always were.
        if let zone = envelope.vehicleTimeZone, zone != "UTC" { json.add("vehicle_time_zone", zone) }
        json.add("id", envelope.recordID)
        json.add("revision", envelope.revision)
        var text = json.string
        let body = fields.string
        if body.count > 2 {
            text.removeLast()
            text += "," + body.dropFirst()
        }
        return Array(text.utf8)
    }

    /// A closed session's fields; `driverUUID` is its driver's stable id.
    public static func trip(_ session: StoredSession, driverUUID: String?, positions: TripPositions) -> JSONLine {
        var fields = JSONLine()
        fields.add("driver", session.driver == nil ? nil : session.driverName)
        fields.add("driver_uuid", driverUUID)
        addTripSummary(session, to: &fields)
        // At the resolution of a USB pull, so that a hub's sums equal the pulls' to the last digit.
        fields.add("distance_m", session.distanceMeters, decimals: 1)
        fields.add("fuel_ml", session.fuelLiters * 1000, decimals: 1)
        fields.add("duration_ms", session.durationMs)
        fields.add("moving_ms", session.movingMs)
        fields.add("idle_ms", session.idleMs)
        fields.add("max_speed_mps", session.maximumSpeedMetersPerSecond, decimals: 2)
        switch positions {
        case .none:
            break
        case let .summary(first, last):
            if let first, let last {
                fields.addRaw("start", json: position(first.latitude, first.longitude))
                fields.addRaw("end", json: position(last.latitude, last.longitude))
            }
        case let .track(points):
            fields.addRaw("track", json: JSONLine.array(points.map { point in
                "[\(point.utcMs),\(JSONLine.formatFixed(point.latitude, decimals: 6)),\(JSONLine.formatFixed(point.longitude, decimals: 6))]"
            }))
        }
        return fields
    }

    /// A trip's summary fields, from `start_utc` to `driver_left_utc`, shared by the uplink and `trips --json`.
    public static func addTripSummary(_ trip: some TripSummary, to fields: inout JSONLine) {
        fields.add("start_utc", utc(trip.startUTCMs))
        fields.add("end_utc", utc(trip.endUTCMs))
        fields.add("end_reason", trip.reportedEndReason)
        fields.add("distance_km", trip.distanceMeters / 1000, decimals: 3)
        fields.add("duration_s", trip.durationMs / 1000)
        fields.add("idle_s", trip.idleMs / 1000)
        fields.add("harsh_accel", trip.harshAccelerations)
        fields.add("harsh_brake", trip.harshBrakings)
        fields.add("max_speed_kmh", trip.maximumSpeedMetersPerSecond * 3.6, decimals: 1)
        fields.add("fuel_l", trip.fuelLiters, decimals: 3)
        fields.add("moving_s", trip.movingMs / 1000)
        fields.add("stopped_utc", utc(trip.stoppedUTCMs))
        fields.add("driver_left_utc", utc(trip.driverLeftUTCMs))
    }

    /// A deleted trip's or removed refuel's last message: `"deleted":true`, no other field.
    public static func deleted() -> JSONLine {
        var fields = JSONLine()
        fields.add("deleted", true)
        return fields
    }

    /// A refuel's fields as entered or corrected; `vehicleCurrency` stands in for a refuel without its own.
    public static func refuel(_ refuel: RefuelInput, vehicleCurrency: String?) -> JSONLine {
        var fields = JSONLine()
        addRefuelFields(refuel, vehicleCurrency: vehicleCurrency, withBookState: false, to: &fields)
        return fields
    }

    /// A refuel's fields, shared by the uplink and the fuel log's JSON (`RefuelText`), which adds
    /// the book's state (`withBookState`: the untracked policy and when the bill was settled).
    public static func addRefuelFields(_ refuel: RefuelInput, vehicleCurrency: String?, withBookState: Bool, to fields: inout JSONLine) {
        fields.add("at_utc", utc(refuel.atUTCMs))
        fields.add("liters", refuel.liters, decimals: 3)
        fields.add("cost_cents", refuel.cost.value)
        fields.add("currency", refuel.currency ?? vehicleCurrency)
        fields.add("full", refuel.fullTank)
        fields.add("odometer_km", refuel.odometerKilometers, decimals: 1)
        fields.add("fuel", refuel.fuelType)
        fields.add("station", refuel.station)
        fields.add("note", refuel.note)
        fields.add("entered_utc", utc(refuel.enteredUTCMs))
        if withBookState {
            fields.add("untracked_policy", refuel.untrackedPolicy?.rawValue)
            fields.add("settled_utc", utc(refuel.settledUTCMs))
        }
        if refuel.baseline { fields.add("baseline", true) }
    }

    /// A bill's split; `driverUUIDs` holds each share's driver's stable id, in the shares' order.
    public static func split(_ split: RefuelSplit, vehicleCurrency: String?, driverUUIDs: [String?]) -> JSONLine {
        var fields = JSONLine()
        fields.add("at_utc", utc(split.refuel.atUTCMs))
        fields.add("liters", split.refuel.liters, decimals: 3)
        fields.add("cost_cents", split.refuel.cost.value)
        fields.add("full", split.refuel.fullTank)
        fields.add("currency", split.refuel.currency ?? vehicleCurrency)
        fields.add("rule", split.rule?.rawValue)
        var shares: [String] = []
        for (share, uuid) in zip(split.shares, driverUUIDs) {
            var s = JSONLine()
            s.add("driver", share.driverName)
            s.add("driver_uuid", uuid)
            s.add("fuel_l", share.fuelLiters, decimals: 3)
            s.add("cost_cents", share.cost.value)
            if share.beforeTracking { s.add("before_tracking", true) }
            shares.append(s.string)
        }
        fields.addRaw("shares", json: JSONLine.array(shares))
        return fields
    }

    /// An ISO 8601 UTC time from epoch milliseconds (nil stays nil).
    public static func utc(_ milliseconds: Int64?) -> String? {
        milliseconds.map { UTCTimestamp(millisecondsSinceEpoch: $0).iso8601 }
    }

    private static func position(_ latitude: Double, _ longitude: Double) -> String {
        "[\(JSONLine.formatFixed(latitude, decimals: 6)),\(JSONLine.formatFixed(longitude, decimals: 6))]"
    }
}
