import FairFuelCore
import FairFuelPull
import FairFuelReports
import FairFuelStore

/// The hub's database (`fairfuel hub --db FILE|postgres://…`, or a hub directory's own) as the web
/// app reads it: every car's books joined into people by `FamilyBooks.load(pullsOrHubs:)`, the code
/// `fairfuel family` runs, kept between requests while nothing is committed (`HubBooksCache`).
/// Read-only unless it has `corrections` (a broker and the cars' secrets): then a family user's
/// correction goes down to its car as a signed command, pending in the database until the car answers.
public struct HubFamily: Sendable {
    /// Opens the hub database `path` names, nil when it is none: SQLite by default; the CLI hands
    /// one that knows `postgres://` URLs too, so this target never links a PostgreSQL client.
    public typealias Opener = @Sendable (String) throws(StoreError) -> (any HubRecordStoring)?

    public let path: String
    /// The database as messages name it: the path, or the URL without its password.
    public let location: String
    public let corrections: HubCorrections?
    let open: Opener
    let cache: HubBooksCache

    /// Checks that `path` is a hub's database and that its books load, without changing it.
    public init(
        path: String, corrections: HubCorrections? = nil, open: @escaping Opener = { path throws(StoreError) in try HubDatabaseViews.openSQLite(path) }
    ) throws(WebError) {
        self.path = path
        self.corrections = corrections
        self.open = open
        let database: (any HubRecordStoring)?
        do { database = try open(path) } catch {
            throw .unavailable("\(error); a car's store is served with --db alone")
        }
        guard let database else {
            throw .unavailable("no hub database at \(path): `fairfuel hub --db \(path)` writes one")
        }
        location = database.location
        cache = try HubBooksCache(path: path, location: location, open: open)
        _ = try books()
    }

    /// The hub's database, opened for one request.
    func database() throws(WebError) -> any HubRecordStoring {
        do {
            guard let database = try open(path) else { throw WebError.unavailable("no hub database at \(location)") }
            return database
        } catch let error as WebError {
            throw error
        } catch {
            throw .unavailable("cannot open the hub database \(location): \(error)")
        }
    }

    /// Every car's books as the hub has written them (as cars send), read again after each commit.
    func books() throws(WebError) -> FamilyBooks { try cache.books() }

    /// The car `vehicle` names among the hub's, or 404.
    func car(_ vehicle: String) throws(WebError) -> FamilyBooks.Car {
        guard let car = try books().cars.first(where: { $0.vehicleID == vehicle }) else {
            throw .notFound("the hub has no car \(vehicle)")
        }
        return car
    }

    /// The commands sent to `vehicle`, newest first (none when the hub sends none).
    func commands(_ vehicle: String) throws(WebError) -> [HubCommandEntry] {
        guard corrections != nil else { return [] }
        return try HubCorrections.commands(vehicle: vehicle, database: database())
    }

    /// The books and the month shown: `text` (YYYY-MM) when given, else the month of `nowUTCMs` on the family's calendar.
    func view(month text: String?, nowUTCMs: Int64) throws(WebError) -> HubFamilyView {
        let month: CalendarMonth
        if let text, !text.isEmpty {
            do { month = try CalendarMonth.parse(text) } catch { throw .badRequest("month: \(error)") }
        } else {
            month = CalendarMonth(utcMs: nowUTCMs, in: try books().units.timeZone)
        }
        let (books, summaries) = try cache.summaries(month)
        // Every car's commands in one read, newest first.
        let commands = corrections == nil ? [:] : Dictionary(grouping: try HubCorrections.commands(vehicle: nil, database: database()), by: \.vehicle)
        return HubFamilyView(books: books, summaries: summaries, sendsCorrections: corrections != nil, commands: commands)
    }
}
