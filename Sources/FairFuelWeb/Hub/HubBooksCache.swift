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
    }

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
        let path = path
        return try state.withLock { (state: inout State) throws(WebError) -> FamilyBooks in
            let version: Int64
            do { version = try state.version.current() } catch { throw .unavailable("cannot read the hub database \(path): \(error)") }
            if let read = state.read, read.version == version { return read.books }
            let books: FamilyBooks
            do { books = try FamilyBooks.load(pullsOrHubs: [path]) } catch {
                throw .unavailable("cannot read the hub database \(path): \(error)")
            }
            state.read = (version, books)
            return books
        }
    }
}
