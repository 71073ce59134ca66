/// A fixed-capacity FIFO of bytes for serial receive; it never grows.
///
/// Full-ring policy: a write that does not fit is refused (partly or whole) and
/// the refused bytes are counted in `refusedByteCount`. The writer is the
/// serial reader, which asks for at most `freeCount` bytes, so the bytes it
/// cannot take stay in the kernel's tty buffer (back-pressure) instead of being
/// lost. Dropping the oldest bytes instead would cut a frame already half
/// decoded, and the receiver would lose it anyway.
public struct ByteRing: Sendable {
    private var storage: [UInt8]
    private var head = 0  // index of the oldest byte
    public private(set) var count = 0
    /// Bytes a write could not store since the ring was made.
    public private(set) var refusedByteCount: UInt64 = 0

    public init(capacity: Int) {
        precondition(capacity > 0, "a ring needs room for at least one byte")
        storage = [UInt8](repeating: 0, count: capacity)
    }

    public var capacity: Int { storage.count }
    public var freeCount: Int { storage.count - count }
    public var isEmpty: Bool { count == 0 }
    public var isFull: Bool { count == storage.count }

    /// Appends as many of `bytes` as fit, oldest first, and returns how many were stored.
    @discardableResult
    public mutating func write<C: Collection>(_ bytes: C) -> Int where C.Element == UInt8 {
        var stored = 0
        var tail = (head + count) % storage.count
        for byte in bytes {
            if count == storage.count {
                refusedByteCount &+= UInt64(bytes.count - stored)
                break
            }
            storage[tail] = byte
            tail += 1
            if tail == storage.count { tail = 0 }
            count += 1
            stored += 1
        }
        return stored
    }

    /// Removes and returns the oldest byte, or nil when empty.
    public mutating func popFirst() -> UInt8? {
        guard count > 0 else { return nil }
        let byte = storage[head]
        head += 1
        if head == storage.count { head = 0 }
        count -= 1
        return byte
    }

    /// The byte `offset` places after the oldest one.
    public subscript(offset: Int) -> UInt8 {
        precondition(offset >= 0 && offset < count, "offset outside the stored bytes")
        let index = head + offset
        return storage[index < storage.count ? index : index - storage.count]
    }

    /// Drops the `n` oldest bytes.
    public mutating func removeFirst(_ n: Int) {
        precondition(n >= 0 && n <= count, "cannot remove more bytes than stored")
        head = (head + n) % storage.count
        count -= n
    }

    public mutating func removeAll() {
        head = 0
        count = 0
    }

    /// Hands the stored bytes, oldest first, to `body` as at most two contiguous
    /// slices, then removes them. Used to drain into a decoder without copying.
    public mutating func drain(_ body: (ArraySlice<UInt8>) -> Void) {
        guard count > 0 else { return }
        let firstEnd = min(head + count, storage.count)
        body(storage[head..<firstEnd])
        let wrapped = count - (firstEnd - head)
        if wrapped > 0 { body(storage[0..<wrapped]) }
        head = 0
        count = 0
    }

    /// The stored bytes, oldest first (a copy; for tests and diagnostics).
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        for i in 0..<count { out.append(self[i]) }
        return out
    }
}
