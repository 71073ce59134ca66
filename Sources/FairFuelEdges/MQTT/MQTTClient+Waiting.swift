#if canImport(Glibc)
import Glibc
#endif

extension MQTTClient {
    /// What the client's socket is ready for, as `service(readable:writable:nowMs:)` takes it.
    public struct Readiness: Sendable, Equatable {
        /// Something to read, or the connection hung up or failed (`service` finds out which).
        public var readable: Bool
        public var writable: Bool

        public init(readable: Bool, writable: Bool) {
            self.readable = readable
            self.writable = writable
        }
    }

    /// For an owner whose poll loop is this client alone (`fairfuel hub`): waits up to
    /// `timeoutMs` for `descriptor` to be readable (or writable, while `wantsWrite`); without a
    /// socket (between attempts), just waits.
    ///
    /// A timeout, or a signal interrupting the wait, is nothing ready: the owner services the
    /// client and checks its stop flag either way.
    public func waitForReadiness(timeoutMs: Int32) -> Readiness {
        guard let descriptor else {
            _ = poll(nil, 0, timeoutMs)
            return Readiness(readable: false, writable: false)
        }
        var request = pollfd(fd: descriptor, events: Int16(POLLIN) | (wantsWrite ? Int16(POLLOUT) : 0), revents: 0)
        guard poll(&request, 1, timeoutMs) > 0 else { return Readiness(readable: false, writable: false) }
        return Readiness(
            readable: request.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0,
            writable: request.revents & Int16(POLLOUT) != 0)
    }
}
