#if canImport(Glibc)
import Glibc
#endif

/// What a descriptor is ready for after a wait.
public struct PollReadiness: Sendable, Equatable {
    /// Something to read, or the other end hung up or failed (the reader finds out which).
    public var readable: Bool
    public var writable: Bool

    public init(readable: Bool, writable: Bool) {
        self.readable = readable
        self.writable = writable
    }

    public static let none = PollReadiness(readable: false, writable: false)
}

/// A poll(2) set for a loop that rebuilds it every turn: the descriptors it waits on change (a link
/// that comes and goes, clients of the control socket), and the storage is kept across turns, so
/// a turn allocates nothing once the set has been as large as it gets.
public struct PollSet {
    private var descriptors: [pollfd] = []

    public init(capacity: Int = 16) { descriptors.reserveCapacity(capacity) }

    /// Empties the set for the next turn (the storage is kept).
    public mutating func removeAll() { descriptors.removeAll(keepingCapacity: true) }

    /// Waits on `descriptor` for reading (always: a hang-up or an error reads as readable) and,
    /// when `writable`, for writing.
    public mutating func add(_ descriptor: Int32, writable: Bool = false) {
        descriptors.append(pollfd(fd: descriptor, events: Int16(POLLIN) | (writable ? Int16(POLLOUT) : 0), revents: 0))
    }

    /// Waits up to `timeoutMs` (0: do not wait; negative is taken as 0) for any descriptor, or for
    /// the time alone when the set is empty. A timeout or a signal is nothing ready.
    public mutating func wait(timeoutMs: Int64) {
        // Entries are added with nothing ready, and poll writes what it finds only when it returns > 0.
        _ = poll(&descriptors, nfds_t(descriptors.count), Int32(clamping: max(0, timeoutMs)))
    }

    /// What `descriptor` was found ready for by the last `wait` (nothing when it is not in the set).
    public func readiness(of descriptor: Int32) -> PollReadiness {
        guard let entry = descriptors.first(where: { $0.fd == descriptor }) else { return .none }
        return PollReadiness(
            readable: entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0,
            writable: entry.revents & Int16(POLLOUT) != 0)
    }

    /// Whether the last `wait` found anything at all on `descriptor`.
    public func isReady(_ descriptor: Int32) -> Bool {
        descriptors.contains { $0.fd == descriptor && $0.revents != 0 }
    }
}
