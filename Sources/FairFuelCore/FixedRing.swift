/// A fixed-capacity ring of values; pushing onto a full ring evicts the oldest.
///
/// Storage is reserved once at init and never grows; `push` returns what it
/// evicted so that the caller decides whether that matters. Inlinable, so that the
/// domain's per-event loops over it are specialized in their own module (an
/// unspecialized generic pays a witness-table call per element).
@frozen
public struct FixedRing<Element>: Sendable where Element: Sendable {
    @usableFromInline var storage: [Element?]
    @usableFromInline var head = 0  // index of the oldest element
    @usableFromInline var storedCount = 0

    @inlinable
    public var count: Int { storedCount }

    @inlinable
    public init(capacity: Int) {
        precondition(capacity > 0, "a ring needs room for at least one element")
        storage = [Element?](repeating: nil, count: capacity)
    }

    @inlinable
    public var capacity: Int { storage.count }
    @inlinable
    public var isEmpty: Bool { count == 0 }
    @inlinable
    public var isFull: Bool { count == storage.count }

    /// Appends `element`; on a full ring removes and returns the oldest element.
    @discardableResult
    @inlinable
    public mutating func push(_ element: Element) -> Element? {
        if count == storage.count {
            let evicted = storage[head]
            storage[head] = element
            head += 1
            if head == storage.count { head = 0 }
            return evicted
        }
        var tail = head + count
        if tail >= storage.count { tail -= storage.count }
        storage[tail] = element
        storedCount += 1
        return nil
    }

    /// Removes and returns the oldest element, or nil when empty.
    @inlinable
    public mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head]
        storage[head] = nil
        head += 1
        if head == storage.count { head = 0 }
        storedCount -= 1
        return element
    }

    /// The element `offset` places after the oldest one.
    @inlinable
    public subscript(offset: Int) -> Element {
        precondition(offset >= 0 && offset < count, "offset outside the stored elements")
        var index = head + offset
        if index >= storage.count { index -= storage.count }
        return storage[index]!
    }

    @inlinable
    public var first: Element? { count > 0 ? self[0] : nil }
    @inlinable
    public var last: Element? { count > 0 ? self[count - 1] : nil }

    @inlinable
    public mutating func removeAll() {
        for i in storage.indices { storage[i] = nil }
        head = 0
        storedCount = 0
    }
}

extension FixedRing: Sequence {
    @frozen
    public struct Iterator: IteratorProtocol {
        @usableFromInline let ring: FixedRing
        @usableFromInline var offset = 0

        @inlinable
        init(ring: FixedRing) { self.ring = ring }

        @inlinable
        public mutating func next() -> Element? {
            guard offset < ring.count else { return nil }
            defer { offset += 1 }
            return ring[offset]
        }
    }

    @inlinable
    public func makeIterator() -> Iterator { Iterator(ring: self) }
    @inlinable
    public var underestimatedCount: Int { count }
}
