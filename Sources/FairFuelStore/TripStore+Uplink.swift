import FairFuelCore
import FairFuelDomain
import FairFuelSQLite

/// The uplink's record messages (docs/mqtt.md, payload version 1), queued inside the caller's
/// transaction so that a record and its message commit or roll back together. Each does
/// nothing without `uplink`.
extension TripStore {
    /// The payload version every message carries as `v`.
    public static let uplinkPayloadVersion = 1

    /// `<prefix>/<vehicle uplink id>/<kind>`.
    public func uplinkTopic(_ kind: String) throws(StoreError) -> String? {
        guard let uplink else { return nil }
        return "\(uplink.topicPrefix)/\(try vehicleUplinkID())/\(kind)"
    }

    /// Queues the trip message of a closed session (a finished trip, or its correction).
    func enqueueTripMessage(session id: Int64) throws {
        guard let uplink else { return }
        let rows = try connection.query("\(StoredSession.selectColumns) WHERE id = ?", .integer(id)) { StoredSession(row: $0) }
        guard let session = rows.first, session.endReason != nil else { return }
        let uuid = try session.driver.flatMap { driver in
            try connection.scalarText("SELECT uuid FROM drivers WHERE id = ?", .integer(driver.rawValue))
        }
        var fields = JSONLine()
        fields.add("driver", session.driver == nil ? nil : session.driverName)
        fields.add("driver_uuid", uuid)
        fields.add("start_utc", Self.utcText(session.startUTCMs))
        fields.add("end_utc", Self.utcText(session.endUTCMs))
        fields.add("end_reason", session.reportedEndReason)
        fields.add("distance_km", session.distanceMeters / 1000, decimals: 3)
        fields.add("duration_s", session.durationMs / 1000)
        fields.add("idle_s", session.idleMs / 1000)
        fields.add("harsh_accel", session.harshAccelerations)
        fields.add("harsh_brake", session.harshBrakings)
        fields.add("max_speed_kmh", session.maximumSpeedMetersPerSecond * 3.6, decimals: 1)
        fields.add("fuel_l", session.fuelLiters, decimals: 3)
        fields.add("moving_s", session.movingMs / 1000)
        fields.add("stopped_utc", Self.utcText(session.stoppedUTCMs))
        fields.add("driver_left_utc", Self.utcText(session.driverLeftUTCMs))
        // At the resolution of a USB pull, so that a hub's sums equal the pulls' to the last digit.
        fields.add("distance_m", session.distanceMeters, decimals: 1)
        fields.add("fuel_ml", session.fuelLiters * 1000, decimals: 1)
        fields.add("duration_ms", session.durationMs)
        fields.add("moving_ms", session.movingMs)
        fields.add("idle_ms", session.idleMs)
        fields.add("max_speed_mps", session.maximumSpeedMetersPerSecond, decimals: 2)
        switch uplink.positions {
        case .none:
            break
        case .summary:
            let points = try TrackChunkStorage.points(of: session.id, connection: connection)
            if let first = points.first, let last = points.last {
                fields.addRaw("start", json: Self.position(first.latitude, first.longitude))
                fields.addRaw("end", json: Self.position(last.latitude, last.longitude))
            }
        case .track:
            let points = try TrackChunkStorage.points(of: session.id, connection: connection)
            fields.addRaw("track", json: JSONLine.array(points.map { point in
                "[\(point.utcMs),\(JSONLine.formatFixed(point.latitude, decimals: 6)),\(JSONLine.formatFixed(point.longitude, decimals: 6))]"
            }))
        }
        try enqueueRecordMessage(.trip, recordID: id, fields: fields, uplink: uplink)
    }

    /// Queues a deleted trip's last message: `"deleted":true`, no other field.
    func enqueueTripDeletedMessage(session id: Int64) throws {
        guard let uplink else { return }
        var fields = JSONLine()
        fields.add("deleted", true)
        try enqueueRecordMessage(.trip, recordID: id, fields: fields, uplink: uplink)
    }

    /// Queues a refuel's message as entered or corrected (`refuel list --json`'s fields).
    func enqueueRefuelMessage(id: Int64) throws {
        guard let uplink else { return }
        let fallbackCurrency = try connection.scalarText("SELECT currency FROM vehicle WHERE id = 1")
        guard let refuel = try refuels().first(where: { $0.id == id })?.refuel else { return }
        var fields = JSONLine()
        fields.add("at_utc", Self.utcText(refuel.atUTCMs))
        fields.add("liters", refuel.liters, decimals: 3)
        fields.add("cost_cents", refuel.cost.value)
        fields.add("currency", refuel.currency ?? fallbackCurrency)
        fields.add("full", refuel.fullTank)
        fields.add("odometer_km", refuel.odometerKilometers, decimals: 1)
        fields.add("fuel", refuel.fuelType)
        fields.add("station", refuel.station)
        fields.add("note", refuel.note)
        fields.add("entered_utc", Self.utcText(refuel.enteredUTCMs))
        if refuel.baseline { fields.add("baseline", true) }
        try enqueueRecordMessage(.refuel, recordID: id, fields: fields, uplink: uplink)
    }

    /// Queues a removed refuel's last message: `"deleted":true`.
    func enqueueRefuelRemovedMessage(id: Int64) throws {
        guard let uplink else { return }
        var fields = JSONLine()
        fields.add("deleted", true)
        try enqueueRecordMessage(.refuel, recordID: id, fields: fields, uplink: uplink)
    }

    /// Queues the split of every bill `change` moved (`split --json`'s fields, with driver ids).
    func enqueueSplitMessages(_ change: BookChange) throws {
        try enqueueSplitMessages(refuels: Set(change.bills.map(\.refuelID)))
    }

    /// The split messages of the bills `moved`, as they stand now.
    func enqueueSplitMessages(refuels moved: Set<Int64>) throws {
        guard let uplink, !moved.isEmpty else { return }
        let fallbackCurrency = try connection.scalarText("SELECT currency FROM vehicle WHERE id = 1")
        for split in try splits() where moved.contains(split.id) {
            var fields = JSONLine()
            fields.add("at_utc", Self.utcText(split.refuel.atUTCMs))
            fields.add("liters", split.refuel.liters, decimals: 3)
            fields.add("cost_cents", split.refuel.cost.value)
            fields.add("full", split.refuel.fullTank)
            fields.add("currency", split.refuel.currency ?? fallbackCurrency)
            fields.add("rule", split.rule?.rawValue)
            var shares: [String] = []
            for share in split.shares {
                let uuid = try share.driver.flatMap { driver in
                    try connection.scalarText("SELECT uuid FROM drivers WHERE id = ?", .integer(driver.rawValue))
                }
                var s = JSONLine()
                s.add("driver", share.driverName)
                s.add("driver_uuid", uuid)
                s.add("fuel_l", share.fuelLiters, decimals: 3)
                s.add("cost_cents", share.cost.value)
                if share.beforeTracking { s.add("before_tracking", true) }
                shares.append(s.string)
            }
            fields.addRaw("shares", json: JSONLine.array(shares))
            try enqueueRecordMessage(.split, recordID: split.id, fields: fields, uplink: uplink)
        }
    }

    /// The envelope (`v`, `message_id`, `vehicle`, `vehicle_uid`, `vehicle_name`, `vehicle_time_zone` once set, `id`,
    /// `revision`) and `fields`, queued.
    private func enqueueRecordMessage(_ kind: OutboxRecordTopic, recordID: Int64, fields: JSONLine, uplink: OutboxUplink) throws {
        let vehicle = try vehicleUplinkID()
        // The id a USB pull carries (`vehicleUID()`), so that a hub's copy of this car and its pull are one car.
        let vehicleUID = try connection.scalarText("SELECT uid FROM vehicle WHERE id = 1")
        let vehicleName = try connection.scalarText("SELECT name FROM vehicle WHERE id = 1")
        let vehicleTimeZone = try connection.scalarText("SELECT time_zone FROM vehicle WHERE id = 1")
        try connection.run(
            """
            INSERT INTO outbox_revisions (topic_kind, record_id, revision) VALUES (?1, ?2, 0)
            ON CONFLICT (topic_kind, record_id) DO UPDATE SET revision = revision + 1
            """,
            .text(kind.rawValue), .integer(recordID))
        let revision = try connection.scalarInt(
            "SELECT revision FROM outbox_revisions WHERE topic_kind = ? AND record_id = ?", .text(kind.rawValue), .integer(recordID)) ?? 0
        let body = fields.string
        let messageID = try enqueueOutboxMessage(
            topic: "\(uplink.topicPrefix)/\(vehicle)/\(kind.rawValue)", retained: false, kind: .record, recordID: recordID,
            budget: uplink.budget
        ) { messageID in
            var envelope = JSONLine()
            envelope.add("v", Self.uplinkPayloadVersion)
            envelope.add("message_id", messageID.rawValue)
            envelope.add("vehicle", vehicle)
            if let vehicleUID { envelope.add("vehicle_uid", vehicleUID) }
            envelope.add("vehicle_name", vehicleName)
            // Only once the family set one: a UTC car's messages are what they always were.
            if let vehicleTimeZone, vehicleTimeZone != "UTC" { envelope.add("vehicle_time_zone", vehicleTimeZone) }
            envelope.add("id", recordID)
            envelope.add("revision", revision)
            // The record's fields follow the envelope: `{...envelope` + `,` + `fields...}`.
            var text = envelope.string
            if body.count > 2 {
                text.removeLast()
                text += "," + body.dropFirst()
            }
            return Array(text.utf8)
        }
        // What `resend` after a message id picks (`requeueRecordMessages`).
        try connection.run(
            "UPDATE outbox_revisions SET last_message_id = ? WHERE topic_kind = ? AND record_id = ?",
            .integer(messageID.rawValue), .text(kind.rawValue), .integer(recordID))
    }

    private static func utcText(_ milliseconds: Int64?) -> String? {
        milliseconds.map { UTCTimestamp(millisecondsSinceEpoch: $0).iso8601 }
    }

    private static func position(_ latitude: Double, _ longitude: Double) -> String {
        "[\(JSONLine.formatFixed(latitude, decimals: 6)),\(JSONLine.formatFixed(longitude, decimals: 6))]"
    }
}
