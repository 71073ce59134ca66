import Foundation

/// Runs `body` on a thread with a stack of `megabytes`, and waits for it.
///
/// Swift Testing runs tests on Dispatch worker threads (512 KiB stacks); a scenario
/// world scripted day by day in a debug build needs more than that.
public func onLargeStack<T>(megabytes: Int = 16, _ body: @escaping @Sendable () throws -> T) throws -> T {
    let box = LargeStackResult<T>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        box.result = Result { try body() }
        done.signal()
    }
    thread.stackSize = megabytes << 20
    thread.start()
    done.wait()
    return try box.result!.get()
}

private final class LargeStackResult<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
