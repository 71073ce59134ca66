extension MQTTClient {
    /// What the client's socket is ready for, as `service(readable:writable:nowMs:)` takes it.
    public typealias Readiness = PollReadiness

    /// For an owner whose poll loop is this client alone (`fairfuel hub`): waits up to
    /// `timeoutMs` for `descriptor` to be readable (or writable, while `wantsWrite`); without a
    /// socket (between attempts), just waits.
    ///
    /// A timeout, or a signal interrupting the wait, is nothing ready: the owner services the
    /// client and checks its stop flag either way.
    public func waitForReadiness(timeoutMs: Int32) -> Readiness {
        var set = PollSet(capacity: 1)
        if let descriptor { set.add(descriptor, writable: wantsWrite) }
        set.wait(timeoutMs: Int64(timeoutMs))
        return descriptor.map { set.readiness(of: $0) } ?? .none
    }
}
