import FairFuelCore
import FairFuelPull
import FairFuelReports
import FairFuelStore

/// The hub's database (`fairfuel hub --db FILE`) as the web app reads it: every car's books joined
/// into people by `FamilyBooks.load(pullsOrHubs:)`, the code `fairfuel family` runs. Read-only: a
/// correction is made on the car, whose uplink brings it here.
public struct HubFamily: Sendable {
    public let path: String
    let cache: HubBooksCache

    /// Checks that `path` is a hub's database and that its books load, without changing it.
    public init(path: String) throws(WebError) {
        self.path = path
        guard HubDatabaseViews.isSQLiteFile(path) else {
            throw .unavailable("no hub database at \(path): `fairfuel hub --db \(path)` writes one")
        }
        guard HubRecordStore.isHubDatabase(path: path) else {
            throw .unavailable("\(path) is a SQLite database but not a hub's (`fairfuel hub --db FILE` writes one; a car's store is served with --db alone)")
        }
        cache = try HubBooksCache(path: path)
        _ = try books()
    }

    /// Every car's books as the hub has written them (as cars send), read again after each commit.
    func books() throws(WebError) -> FamilyBooks { try cache.books() }

    /// The family page's body for the month asked (`view(month:nowUTCMs:)`), made once per month and commit.
    func page(month text: String?, nowUTCMs: Int64) throws(WebError) -> String {
        let view = try view(month: text, nowUTCMs: nowUTCMs)
        return try cache.rendered("page \(view.month)") { books throws(WebError) in HubPageViews.family(HubFamilyView(books: books, month: view.month)) }
    }

    /// `/api/v1/family` for the month asked, made once per month and commit.
    func json(month text: String?, nowUTCMs: Int64) throws(WebError) -> String {
        let view = try view(month: text, nowUTCMs: nowUTCMs)
        return try cache.rendered("json \(view.month)") { books throws(WebError) in HubFamilyView(books: books, month: view.month).json }
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
        return HubFamilyView(books: books, month: month)
    }
}
