import FairFuelCore
import FairFuelPull
import FairFuelReports
import FairFuelStore

/// The hub's database (`fairfuel hub --db FILE|postgres://…`) as the web app reads it: every car's books joined
/// into people by `FamilyBooks.load(pullsOrHubs:)`, the code `fairfuel family` runs. Read-only unless
/// it has `corrections` (a broker and the cars' secrets): then a family user's correction goes down
/// to its car as a signed command, pending in the database until the car answers.
public struct HubFamily: Sendable {
    /// Opens the hub database `path` names, nil when it is none: SQLite by default; the CLI hands
    /// one that knows `postgres://` URLs too, so this target never links a PostgreSQL client.
    public typealias Opener = @Sendable (String) throws(StoreError) -> (any HubRecordStoring)?

    public let path: String
    /// The database as messages name it: the path, or the URL without its password.
    public let location: String
    public let corrections: HubCorrections?
    let open: Opener

    /// Checks that `path` is a hub's database and that its books load, without changing it.
    public init(path: String, corrections: HubCorrections? = nil, open: @escaping Opener = { path throws(StoreError) in try HubDatabaseViews.openSQLite(path) }) throws(WebError) {
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

    /// Every car's books, read now (the hub writes as cars send).
    func books() throws(WebError) -> FamilyBooks {
        do { return try FamilyBooks.load(pullsOrHubs: [path], open: open) } catch {
            throw .unavailable("cannot read the hub database \(location): \(error)")
        }
    }

    /// The car `vehicle` names among the hub's, or 404.
    func car(_ vehicle: String, in books: FamilyBooks? = nil) throws(WebError) -> FamilyBooks.Car {
        let read: FamilyBooks
        if let books { read = books } else { read = try self.books() }
        guard let car = read.cars.first(where: { $0.vehicleID == vehicle }) else {
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
    /// `books`: those the request read already, so that it reads the database once.
    func view(month text: String?, nowUTCMs: Int64, books read: FamilyBooks? = nil) throws(WebError) -> HubFamilyView {
        let books: FamilyBooks
        if let read { books = read } else { books = try self.books() }
        let month: CalendarMonth
        if let text, !text.isEmpty {
            do { month = try CalendarMonth.parse(text) } catch { throw .badRequest("month: \(error)") }
        } else {
            month = CalendarMonth(utcMs: nowUTCMs, in: books.units.timeZone)
        }
        // Every car's commands in one read, newest first.
        let commands = corrections == nil ? [:] : Dictionary(grouping: try HubCorrections.commands(vehicle: nil, database: database()), by: \.vehicle)
        return HubFamilyView(books: books, month: month, sendsCorrections: corrections != nil, commands: commands)
    }
}
