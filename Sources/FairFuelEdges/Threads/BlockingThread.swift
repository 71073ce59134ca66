import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A plain POSIX thread for a blocking loop (the virtual MCU, a recorder), so that it never
/// occupies one of Swift concurrency's few cooperative threads.
///
/// `join` may be called from one thread; the result is read after pthread_join, which
/// orders the thread's writes before it.
public final class BlockingThread<Result: Sendable>: @unchecked Sendable {
    private final class Box: ThreadEntry, @unchecked Sendable {
        let body: () -> Result
        var result: Result?
        init(_ body: @escaping () -> Result) { self.body = body }
        override func main() { result = body() }
    }

    private let box: Box
    private let handle: pthread_t
    private var joined = false

    /// Starts `body` on a new thread.
    public init(_ body: @escaping @Sendable () -> Result) {
        box = Box(body)
        handle = startThread(box)
    }

    /// Waits for the thread to finish and returns what it returned.
    public func join() -> Result {
        if !joined {
            pthread_join(handle, nil)
            joined = true
        }
        return box.result!
    }

    /// Whether the thread has finished.
    public var isFinished: Bool { box.finished.load(ordering: .acquiring) }
}

/// What a thread runs: `main`, then `finished` is set.
class ThreadEntry: @unchecked Sendable {
    let finished = Atomic<Bool>(false)
    func main() {}
}

private func threadMain(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let entry = Unmanaged<ThreadEntry>.fromOpaque(raw!).takeRetainedValue()
    entry.main()
    entry.finished.store(true, ordering: .releasing)
    return nil
}

private func startThread(_ entry: ThreadEntry) -> pthread_t {
    var handle = pthread_t()
    let status = pthread_create(&handle, nil, threadMain, Unmanaged.passRetained(entry).toOpaque())
    precondition(status == 0, "pthread_create failed")
    return handle
}
