import FairFuelCore
import FairFuelDomain
import FairFuelSQLite

/// The uplink's record messages, queued inside the caller's transaction so that a record and its
/// message commit or roll back together. The store reads the record; `UplinkPayload` writes the
/// JSON. Each does nothing without `uplink`.
extension TripStore {
    /// The payload version every message carries as `v`.
    public static var uplinkPayloadVersion: Int { UplinkPayload.version }

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
        let positions: UplinkPayload.TripPositions
        switch uplink.positions {
        case .none:
            positions = .none
        case .summary:
            let points = try TrackChunkStorage.points(of: session.id, connection: connection)
            positions = .summary(first: points.first, last: points.last)
        case .track:
            positions = .track(try TrackChunkStorage.points(of: session.id, connection: connection))
        }
        let fields = UplinkPayload.trip(session, driverUUID: try driverUUID(session.driver), positions: positions)
        try enqueueRecordMessage(.trip, recordID: id, fields: fields, uplink: uplink)
    }

    /// Queues a deleted trip's last message: `"deleted":true`, no other field.
    func enqueueTripDeletedMessage(session id: Int64) throws {
        guard let uplink else { return }
        try enqueueRecordMessage(.trip, recordID: id, fields: UplinkPayload.deleted(), uplink: uplink)
    }

    /// Queues a refuel's message as entered or corrected (`refuel list --json`'s fields).
    func enqueueRefuelMessage(id: Int64) throws {
        guard let uplink else { return }
        let fallbackCurrency = try connection.scalarText("SELECT currency FROM vehicle WHERE id = 1")
        guard let refuel = try refuels().first(where: { $0.id == id })?.refuel else { return }
        try enqueueRecordMessage(.refuel, recordID: id, fields: UplinkPayload.refuel(refuel, vehicleCurrency: fallbackCurrency), uplink: uplink)
    }

    /// Queues a removed refuel's last message: `"deleted":true`.
    func enqueueRefuelRemovedMessage(id: Int64) throws {
        guard let uplink else { return }
        try enqueueRecordMessage(.refuel, recordID: id, fields: UplinkPayload.deleted(), uplink: uplink)
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
            let uuids = try split.shares.map { share in try driverUUID(share.driver) }
            let fields = UplinkPayload.split(split, vehicleCurrency: fallbackCurrency, driverUUIDs: uuids)
            try enqueueRecordMessage(.split, recordID: split.id, fields: fields, uplink: uplink)
        }
    }

    private func driverUUID(_ driver: DriverID?) throws -> String? {
        try driver.flatMap { driver in try connection.scalarText("SELECT uuid FROM drivers WHERE id = ?", .integer(driver.rawValue)) }
    }

    /// The record's next revision and its envelope, then `fields`, queued.
    private func enqueueRecordMessage(_ kind: OutboxRecordTopic, recordID: Int64, fields: JSONLine, uplink: OutboxUplink) throws {
        let vehicle = try vehicleUplinkID()
        try connection.run(
            """
            INSERT INTO outbox_revisions (topic_kind, record_id, revision) VALUES (?1, ?2, 0)
            ON CONFLICT (topic_kind, record_id) DO UPDATE SET revision = revision + 1
            """,
            .text(kind.rawValue), .integer(recordID))
        let envelope = UplinkPayload.Envelope(
            vehicle: vehicle,
            vehicleUID: try connection.scalarText("SELECT uid FROM vehicle WHERE id = 1"),
            vehicleName: try connection.scalarText("SELECT name FROM vehicle WHERE id = 1"),
            vehicleTimeZone: try connection.scalarText("SELECT time_zone FROM vehicle WHERE id = 1"),
            recordID: recordID,
            revision: try connection.scalarInt(
                "SELECT revision FROM outbox_revisions WHERE topic_kind = ? AND record_id = ?", .text(kind.rawValue), .integer(recordID)) ?? 0)
        let messageID = try enqueueOutboxMessage(
            topic: "\(uplink.topicPrefix)/\(vehicle)/\(kind.rawValue)", retained: false, kind: .record, recordID: recordID,
            budget: uplink.budget
        ) { messageID in UplinkPayload.message(envelope, messageID: messageID, fields: fields) }
        // What `resend` after a message id picks (`requeueRecordMessages`).
        try connection.run(
            "UPDATE outbox_revisions SET last_message_id = ? WHERE topic_kind = ? AND record_id = ?",
            .integer(messageID.rawValue), .text(kind.rawValue), .integer(recordID))
    }
}
