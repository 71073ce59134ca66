import ArgumentParser
import FairFuelCore
import FairFuelReports
import FairFuelService
import FairFuelStore

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write a trip's stored track as GPX 1.1 or GeoJSON, for any map tool.")

    @Argument(help: "The trip's id (see `fairfuel trips`).")
    var tripID: Int64
    @Flag(help: "GPX 1.1.") var gpx = false
    @Flag(help: "GeoJSON (RFC 7946).") var geojson = false
    @Option(help: "The file to write (default: standard output).")
    var out: String?
    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard gpx != geojson else { throw ValidationError("choose one format: --gpx or --geojson") }
    }

    func run() throws {
        let db = try store.openReadOnly()
        guard let session = try db.sessions().first(where: { $0.id.rawValue == tripID }) else {
            throw UserFacingError("no trip with id \(tripID) (see `fairfuel trips`)")
        }
        let trip = TripRow(session)
        let points: [TrackPoint]
        do { points = try db.tripPoints(session: session.id).map(TrackPoint.init) } catch { throw UserFacingError("\(error)") }
        guard !points.isEmpty else {
            let why = session.assignedFromUntracked != nil
                ? "it was untracked driving given to \(trip.driverName) afterwards, and positions are recorded only in a driver's session"
                : "no position was stored for it (the receiver had no fix while it was driven)"
            throw UserFacingError("trip \(tripID) has no track to export: \(why)")
        }
        let units = DisplayUnits(vehicle: try db.vehicle())
        let name = "Trip \(trip.id), \(trip.driverName), \(trip.startUTCMs.map(units.minuteText(utcMs:)) ?? "?") \(units.timeZone.name)"
        let text = gpx ? GPXWriter.document(name: name, trip: trip, points: points) : GeoJSONWriter.document(trip: trip, points: points)
        try writeOutput(text, to: out)
        if let out {
            print("trip \(tripID): \(points.count) point(s) written to \(out)")
        }
    }
}
