import FairFuelPull
import FairFuelStore
import Synchronization

/// The hub's books as last read, kept while the database's data version stays the same: at fleet
/// size reading every car's records takes far longer than a page (docs/web.md, figures), and the
/// books change only when the hub collecting commits.
final class HubBooksCache: Sendable {
    private struct State {
        let version: HubDataVersion
        var read: (version: Int64, books: FamilyBooks)?
        /// Pages and JSON made from `read`'s books, by what they show (the view and its month).
        var rendered: [String: String] = [:]
    }

    /// Rendered views kept at most (a month is asked for in the URL): past it they are all made again.
    static let renderedLimit = 24

    private let state: Mutex<State>
    let path: String

    init(path: String) throws(WebError) {
        self.path = path
        do { state = Mutex(State(version: try HubDataVersion(path: path))) } catch {
            throw .unavailable("cannot read the hub database \(path): \(error)")
        }
    }

    /// The books, read again only after a commit. One reader at a time: requests arriving during a
    /// read wait for its result rather than reading the database each.
    func books() throws(WebError) -> FamilyBooks {
        try state.withLock { (state: inout State) throws(WebError) -> FamilyBooks in try current(&state) }
    }

    /// What `make` renders from the books, kept under `key` until the hub commits: at a thousand cars
    /// the family page's summaries take longer than reading the books did.
    func rendered(_ key: String, _ make: (FamilyBooks) throws(WebError) -> String) throws(WebError) -> String {
        try state.withLock { (state: inout State) throws(WebError) -> String in
            let books = try current(&state)
            if let text = state.rendered[key] { return text }
            let text = try make(books)
            if state.rendered.count >= Self.renderedLimit { state.rendered.removeAll() }
            state.rendered[key] = text
            return text
        }
    }

    /// How many renderings are kept now.
    var renderedCount: Int { state.withLock { $0.rendered.count } }

    /// The books, read again (and the renderings dropped) when the data version moved.
    private func current(_ state: inout State) throws(WebError) -> FamilyBooks {
        let version: Int64
        do { version = try state.version.current() } catch { throw .unavailable("cannot read the hub database \(path): \(error)") }
        if let read = state.read, read.version == version { return read.books }
        let books: FamilyBooks
        do { books = try FamilyBooks.load(pullsOrHubs: [path]) } catch {
            throw .unavailable("cannot read the hub database \(path): \(error)")
        }
        state.read = (version, books)
        state.rendered.removeAll()
        return books
    }
}
