import FairFuelCore
import FairFuelPull
import FairFuelReports
import FairFuelStore

/// The hub's database (`fairfuel hub --db FILE`) as the web app reads it: every car's books joined
/// into people by `FamilyBooks.load(pullsOrHubs:)`, the code `fairfuel family` runs. Read-only unless
/// it has `corrections` (a broker and the cars' secrets): then a family user's correction goes down
/// to its car as a signed command, pending in the database until the car answers.
public struct HubFamily: Sendable {
    public let path: String
    public let corrections: HubCorrections?

    /// Checks that `path` is a hub's database and that its books load, without changing it.
    public init(path: String, corrections: HubCorrections? = nil) throws(WebError) {
        self.path = path
        self.corrections = corrections
        guard HubDatabaseViews.isSQLiteFile(path) else {
            throw .unavailable("no hub database at \(path): `fairfuel hub --db \(path)` writes one")
        }
        guard HubRecordStore.isHubDatabase(path: path) else {
            throw .unavailable("\(path) is a SQLite database but not a hub's (`fairfuel hub --db FILE` writes one; a car's store is served with --db alone)")
        }
        _ = try books()
    }

    /// Every car's books, read now (the hub writes as cars send).
    func books() throws(WebError) -> FamilyBooks {
        do { return try FamilyBooks.load(pullsOrHubs: [path]) } catch {
            throw .unavailable("cannot read the hub database \(path): \(error)")
        }
    }

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
        return try HubCorrections.commands(vehicle: vehicle, database: path)
    }

    /// The books and the month shown: `text` (YYYY-MM) when given, else the month of `nowUTCMs` on the family's calendar.
    func view(month text: String?, nowUTCMs: Int64) throws(WebError) -> HubFamilyView {
        let books = try books()
        let month: CalendarMonth
        if let text, !text.isEmpty {
            do { month = try CalendarMonth.parse(text) } catch { throw .badRequest("month: \(error)") }
        } else {
            month = CalendarMonth(utcMs: nowUTCMs, in: books.units.timeZone)
        }
        // Every car's commands in one read, newest first.
        let commands = corrections == nil ? [:] : Dictionary(grouping: try HubCorrections.commands(vehicle: nil, database: path), by: \.vehicle)
        return HubFamilyView(books: books, month: month, sendsCorrections: corrections != nil, commands: commands)
    }
}
