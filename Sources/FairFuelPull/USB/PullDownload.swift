import FairFuelCore
import FairFuelReports

/// A whole pull into a directory: pairing, then the vehicle, drivers, splits and summary
/// (small, fetched whole each time), then each new trip with its track.
///
/// Resumable: `DIR/.fairfuel-pull/trips.tsv` is a journal of the trips whose track file is
/// written; a later pull continues after the last of them, so an unplug never loses or
/// duplicates a trip. The CSV, JSON and GPX files are rewritten from the journal at the end.
public struct PullDownload {
    public struct Progress: Sendable, Equatable {
        public var tripsDone: Int
        public var tripsTotal: Int
        public var currentTrip: Int64?
    }

    public struct Report: Sendable, Equatable {
        public var tripsPulled: Int
        public var tripsInDirectory: Int
        public var noiseFrames: Int
        /// Trips pulled before and deleted on the dongle since (`fairfuel trips delete`): dropped here too.
        public var tripsRemoved = 0
        /// Trips pulled before whose record changed on the dongle (`fairfuel trips assign`).
        public var tripsUpdated = 0
    }

    public let directory: String
    public let sinceUTCMs: Int64?
    public let limits: PullLimits
    public static let stateDirectoryName = ".fairfuel-pull"

    public init(directory: String, sinceUTCMs: Int64?, limits: PullLimits = .standard) {
        self.directory = directory
        self.sinceUTCMs = sinceUTCMs
        self.limits = limits
    }

    var stateDirectory: String { directory + "/" + Self.stateDirectoryName }

    public func run(client: PullClient, secret: PairingSecret, progress: (Progress) -> Void) throws(PullClientError) -> Report {
        client.maximumPageBytes = limits.maximumPageBytes
        // Pair first: a refused pull leaves nothing behind.
        try client.pair(secret: secret)
        let vehicle = try all(client, .vehicle)
        // Before anything is written: the folder's trips are merged with this dongle's, and a trip
        // the dongle does not list is taken as deleted there, so another car's pull would wipe them.
        do {
            try checkFolderHoldsThisCar(dongleVehicle: vehicle)
        } catch {
            client.bye()
            throw error
        }
        // Everything the dongle lists is read and checked before anything is written: one that pages
        // without end or counts past any car ends the pull with none of it on disk.
        let drivers: String, splits: String, summary: String, total: Int
        let listing: [(trip: TripRow, fields: [String])]
        do {
            drivers = try all(client, .drivers)
            splits = try all(client, .splits)
            summary = try all(client, .summary)
            total = try summaryTripCount(summary)
            listing = try tripListing(client)
        } catch {
            client.bye()
            throw error
        }
        try PullFiles.makeDirectory(directory)
        try PullFiles.makeDirectory(stateDirectory)
        try PullFiles.makeDirectory(directory + "/tracks")
        try PullFiles.replace(stateDirectory + "/vehicle.tsv", with: vehicle)
        try PullFiles.replace(stateDirectory + "/drivers.tsv", with: drivers)
        try PullFiles.replace(stateDirectory + "/splits.tsv", with: splits)
        try PullFiles.replace(stateDirectory + "/summary.tsv", with: summary)

        let journalPath = stateDirectory + "/trips.tsv"
        var journal = try Self.journal(journalPath)
        // Every trip is listed again (records are small; tracks are fetched only for new ones), so that a
        // trip deleted or given to another driver on the dongle since the last pull is so here too.
        var listed: [Int64: [String]] = [:]
        var journalFields = try Self.journalFields(journalPath)
        var pulled = 0
        progress(Progress(tripsDone: journal.count, tripsTotal: max(total, journal.count), currentTrip: nil))
        for (trip, fields) in listing {
            listed[trip.id] = fields
            guard journal[trip.id] == nil else { continue }
            progress(Progress(tripsDone: journal.count, tripsTotal: max(total, journal.count + 1), currentTrip: trip.id))
            let points = try track(client, trip: trip.id)
            try PullFiles.replace(gpxPath(trip.id), with: GPXWriter.document(name: "Trip \(trip.id)", trip: trip, points: points))
            try PullFiles.appendDurably(journalPath, PullRecordLine.encode(fields))
            journal[trip.id] = trip
            journalFields[trip.id] = fields
            pulled += 1
            progress(Progress(tripsDone: journal.count, tripsTotal: max(total, journal.count), currentTrip: nil))
        }
        var removed = 0
        var updated = 0
        for (id, trip) in journal {
            if let now = listed[id] {
                if now != journalFields[id] {
                    let trip = try PulledRecords.trip(now)
                    // The GPX names the driver: written again with the corrected record.
                    let points = try track(client, trip: id)
                    try PullFiles.replace(gpxPath(id), with: GPXWriter.document(name: "Trip \(id)", trip: trip, points: points))
                    journal[id] = trip
                    journalFields[id] = now
                    updated += 1
                }
            } else if sinceUTCMs.map({ (trip.startUTCMs ?? .min) >= $0 }) ?? true {
                // Not listed though the listing covered it: deleted on the dongle.
                journal[id] = nil
                journalFields[id] = nil
                PullFiles.remove(gpxPath(id))
                removed += 1
            }
        }
        if removed + updated > 0 {
            let lines = journalFields.keys.sorted().compactMap { journalFields[$0].map(PullRecordLine.encode) }
            try PullFiles.replace(journalPath, with: lines.joined())
        }
        client.bye()
        try writeOutputs(trips: journal.values.sorted { $0.id < $1.id }, vehicle: vehicle, splits: splits, summary: summary)
        return Report(
            tripsPulled: pulled, tripsInDirectory: journal.count, noiseFrames: client.noiseCount, tripsRemoved: removed, tripsUpdated: updated)
    }

    /// Throws unless the folder is new, or a pull (complete or interrupted) of the car `dongleVehicle`
    /// describes: the same vehicle unique id, or the same name when either side has no id (older dongles).
    func checkFolderHoldsThisCar(dongleVehicle: String) throws(PullClientError) {
        if try PullFiles.read(directory + "/" + HubCollector.markerName) != nil {
            throw .notAPullFolder(directory: directory, why: "is a `fairfuel hub` directory")
        }
        if try PullFiles.read(stateDirectory + "/" + HubCollector.recordsName) != nil {
            throw .notAPullFolder(directory: directory, why: "holds a car that a `fairfuel hub` keeps")
        }
        guard let folderText = try PullFiles.read(stateDirectory + "/vehicle.tsv") else {
            // vehicle.tsv is written before any trip, so trips without it are not this program's pull.
            if try PullFiles.read(stateDirectory + "/trips.tsv") != nil {
                throw .notAPullFolder(directory: directory, why: "holds pulled trips but no vehicle record, so which car they are is unknown")
            }
            return
        }
        let lines = PulledRecords.lines(folderText)
        guard let folderFields = lines.first else { return }
        guard let folder = try? PulledRecords.vehicle(folderFields) else {
            throw .notAPullFolder(directory: directory, why: "has a vehicle record this version cannot read")
        }
        guard let dongleFields = PulledRecords.lines(dongleVehicle).first else {
            throw .badRecord(kind: "vehicle", line: dongleVehicle)
        }
        let dongle = try PulledRecords.vehicle(dongleFields)
        let same: Bool
        if let folderID = folder.uid, let dongleID = dongle.uid {
            same = folderID == dongleID
        } else {
            same = folder.name == dongle.name
        }
        guard !same else { return }
        func describe(_ v: PulledRecords.Vehicle) -> String { "'\(v.name)'" + (v.uid.map { ", vehicle id \($0)" } ?? "") }
        throw .folderHoldsAnotherCar(directory: directory, folderCar: describe(folder), dongleCar: describe(dongle))
    }

    func gpxPath(_ trip: Int64) -> String { directory + "/tracks/trip-\(trip).gpx" }

    /// Every page of `kind`, as the raw record text (at most `limits.maximumListBytes`).
    func all(_ client: PullClient, _ kind: PullRecordKind) throws(PullClientError) -> String {
        var text: [UInt8] = []
        var cursor: Int64 = 0
        while true {
            let page = try client.page(PullRequest(requestID: 0, kind: kind, cursor: cursor, sinceUTCMs: sinceUTCMs, limit: 64))
            text += page.text
            if text.count > limits.maximumListBytes {
                throw .beyondLimits(kind: kind.name, why: "goes past \(limits.maximumListBytes) bytes")
            }
            guard page.more, page.records > 0 else { break }
            cursor = try Self.advance(from: cursor, to: page.nextCursor, kind: kind)
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Every trip the dongle lists, in its order, each read and checked (at most `limits.maximumTrips`).
    func tripListing(_ client: PullClient) throws(PullClientError) -> [(trip: TripRow, fields: [String])] {
        var listing: [(trip: TripRow, fields: [String])] = []
        var cursor: Int64 = 0
        while true {
            let page = try client.page(PullRequest(requestID: 0, kind: .trips, cursor: cursor, sinceUTCMs: sinceUTCMs, limit: 16))
            var reached = cursor
            for fields in PullRecordLine.decode(page.text) {
                let trip = try PulledRecords.trip(fields)
                listing.append((trip, fields))
                if listing.count > limits.maximumTrips {
                    throw .beyondLimits(kind: PullRecordKind.trips.name, why: "goes past \(limits.maximumTrips) trips")
                }
                reached = max(reached, trip.id)
            }
            guard page.more, page.records > 0 else { break }
            cursor = try Self.advance(from: cursor, to: max(reached, page.nextCursor), kind: .trips)
        }
        return listing
    }

    func track(_ client: PullClient, trip: Int64) throws(PullClientError) -> [TrackPoint] {
        var points: [TrackPoint] = []
        var cursor: Int64 = 0
        while true {
            let page = try client.page(PullRequest(requestID: 0, kind: .track, trip: trip, cursor: cursor, limit: 512))
            for fields in PullRecordLine.decode(page.text) {
                points.append(try PulledRecords.trackPoint(fields))
                if points.count > limits.maximumTrackPoints {
                    throw .beyondLimits(kind: "trip \(trip) track", why: "goes past \(limits.maximumTrackPoints) points")
                }
            }
            guard page.more, page.records > 0 else { break }
            cursor = try Self.advance(from: cursor, to: page.nextCursor, kind: .track)
        }
        return points
    }

    /// The cursor of the next page: it must move past `cursor`, or the dongle would serve the same page forever.
    static func advance(from cursor: Int64, to next: Int64, kind: PullRecordKind) throws(PullClientError) -> Int64 {
        guard next > cursor else { throw .beyondLimits(kind: kind.name, why: "says there is more but does not move past record \(cursor)") }
        return next
    }

    /// The trips the summary counts, all drivers together; a count no car reaches (or that
    /// overflows when added) is a bad record, not a number to compute with.
    func summaryTripCount(_ summary: String) throws(PullClientError) -> Int {
        var total = 0
        for fields in PulledRecords.lines(summary) where fields.count > 2 {
            guard let trips = Int(fields[2]), (0...limits.maximumTrips).contains(trips) else {
                throw .badRecord(kind: "summary", line: fields.joined(separator: " "))
            }
            total += trips
            if total > limits.maximumTrips {
                throw .beyondLimits(kind: PullRecordKind.summary.name, why: "counts more than \(limits.maximumTrips) trips")
            }
        }
        return total
    }

    /// The journal's lines by trip id, as the dongle sent them (the last of a repeated line wins).
    static func journalFields(_ path: String) throws(PullClientError) -> [Int64: [String]] {
        var lines: [Int64: [String]] = [:]
        for fields in PulledRecords.lines(try PullFiles.read(path)) {
            if let id = fields.first.flatMap({ Int64($0) }) { lines[id] = fields }
        }
        return lines
    }

    /// The journal's trips by id (a line repeated by a crash between append and sync counts once).
    static func journal(_ path: String) throws(PullClientError) -> [Int64: TripRow] {
        var trips: [Int64: TripRow] = [:]
        for fields in PulledRecords.lines(try PullFiles.read(path)) {
            let trip = try PulledRecords.trip(fields)
            trips[trip.id] = trip
        }
        return trips
    }

    func writeOutputs(trips: [TripRow], vehicle: String, splits: String, summary: String) throws(PullClientError) {
        let v = try PulledRecords.lines(vehicle).first.map { fields throws(PullClientError) in try PulledRecords.vehicle(fields) }
        let units = DisplayUnits(units: v?.units ?? "metric", currency: v?.currency ?? "EUR", currencyMinorDigits: v?.minorDigits ?? 2)
        try PullFiles.replace(directory + "/trips.csv", with: TripText.csv(trips, units: units))
        try PullFiles.replace(directory + "/trips.json", with: TripText.jsonArray(trips) + "\n")

        var shares: [PulledRecords.Share] = []
        for fields in PulledRecords.lines(splits) { shares.append(try PulledRecords.share(fields)) }
        var csv = "refuel_id,at_utc,liters,bill_minor,full_tank,driver,share_liters,share_minor,currency,before_tracking\r\n"
        var json: [String] = []
        for s in shares {
            csv += [String(s.refuelID), TripText.utc(s.atUTCMs) ?? "", JSONLine.formatFixed(s.liters, decimals: 3), String(s.costMinor),
                    s.fullTank ? "1" : "0", TripText.csvField(s.driverName), JSONLine.formatFixed(s.shareLiters, decimals: 3),
                    String(s.shareMinor), s.currency ?? units.currency, s.beforeTracking ? "1" : "0"].joined(separator: ",") + "\r\n"
            var j = JSONLine()
            j.add("refuel_id", s.refuelID)
            j.add("at_utc", TripText.utc(s.atUTCMs))
            j.add("liters", s.liters, decimals: 3)
            j.add("bill_minor", s.costMinor)
            j.add("full_tank", s.fullTank)
            j.add("driver", s.driverName.isEmpty ? nil : s.driverName)
            j.add("share_liters", s.shareLiters, decimals: 3)
            j.add("share_minor", s.shareMinor)
            j.add("currency", s.currency ?? units.currency)
            j.add("before_tracking", s.beforeTracking)
            json.append(j.string)
        }
        try PullFiles.replace(directory + "/splits.csv", with: csv)
        try PullFiles.replace(directory + "/splits.json", with: JSONLine.array(json) + "\n")

        var summaryCSV = "driver,trips,distance_km,fuel_l,owes_minor,currency\r\n"
        var summaryJSON: [String] = []
        for f in PulledRecords.lines(summary) where f.count >= 6 {
            summaryCSV += [TripText.csvField(f[1]), f[2], JSONLine.formatFixed((Double(f[3]) ?? 0) / 1000, decimals: 3), f[4], f[5], units.currency]
                .joined(separator: ",") + "\r\n"
            var j = JSONLine()
            j.add("driver", f[1].isEmpty ? nil : f[1])
            j.add("trips", Int(f[2]))
            j.add("distance_km", (Double(f[3]) ?? 0) / 1000, decimals: 3)
            j.add("fuel_l", Double(f[4]), decimals: 3)
            j.add("owes_minor", Int64(f[5]))
            j.add("currency", units.currency)
            summaryJSON.append(j.string)
        }
        try PullFiles.replace(directory + "/summary.csv", with: summaryCSV)
        try PullFiles.replace(directory + "/summary.json", with: JSONLine.array(summaryJSON) + "\n")
    }
}
