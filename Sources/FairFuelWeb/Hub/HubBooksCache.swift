import FairFuelCore
import FairFuelPull
import FairFuelStore
import Synchronization

/// The hub's books as last read, kept while the database's data version stays the same: at fleet
/// size reading every car's records takes far longer than a page (docs/web.md, figures), and the
/// books change only when the hub collecting commits.
final class HubBooksCache: Sendable {
    private struct State {
        /// Nil for a database that is no SQLite file (a PostgreSQL server): read again at each request.
        let version: HubDataVersion?
        var read: (version: Int64, books: FamilyBooks)?
        /// The figures made from `read`'s books, by month.
        var summaries: [CalendarMonth: HubFamilySummaries] = [:]
    }

    /// Months' figures kept at most (a month is asked for in the URL): past it they are all made again.
    static let summariesLimit = 24

    private let state: Mutex<State>
    let path: String
    let location: String
    let open: HubFamily.Opener

    init(path: String, location: String, open: @escaping HubFamily.Opener) throws(WebError) {
        self.path = path
        self.location = location
        self.open = open
        do {
            state = Mutex(State(version: HubDatabaseViews.isSQLiteFile(path) ? try HubDataVersion(path: path) : nil))
        } catch {
            throw .unavailable("cannot read the hub database \(location): \(error)")
        }
    }

    /// The books, read again only after a commit. One reader at a time: requests arriving during a
    /// read wait for its result rather than reading the database each.
    func books() throws(WebError) -> FamilyBooks {
        try state.withLock { (state: inout State) throws(WebError) -> FamilyBooks in try current(&state) }
    }

    /// The books and their figures for `month`, kept until the hub commits: at a thousand cars the
    /// family page's summaries take longer than reading the books did.
    func summaries(_ month: CalendarMonth) throws(WebError) -> (books: FamilyBooks, summaries: HubFamilySummaries) {
        try state.withLock { (state: inout State) throws(WebError) -> (books: FamilyBooks, summaries: HubFamilySummaries) in
            let books = try current(&state)
            if let kept = state.summaries[month] { return (books, kept) }
            let made = HubFamilySummaries(books: books, month: month)
            if state.summaries.count >= Self.summariesLimit { state.summaries.removeAll() }
            state.summaries[month] = made
            return (books, made)
        }
    }

    /// How many months' figures are kept now.
    var summariesCount: Int { state.withLock { $0.summaries.count } }

    /// The books, read again (and the figures dropped) when the data version moved.
    private func current(_ state: inout State) throws(WebError) -> FamilyBooks {
        var version: Int64?
        if let reader = state.version {
            do { version = try reader.current() } catch { throw .unavailable("cannot read the hub database \(location): \(error)") }
        }
        if let version, let read = state.read, read.version == version { return read.books }
        let books: FamilyBooks
        do { books = try FamilyBooks.load(pullsOrHubs: [path], open: open) } catch {
            throw .unavailable("cannot read the hub database \(location): \(error)")
        }
        state.read = version.map { ($0, books) }
        state.summaries.removeAll()
        return books
    }
}
