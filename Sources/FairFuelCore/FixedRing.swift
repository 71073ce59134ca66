/// A fixed-capacity ring of values; pushing onto a full ring evicts the oldest.
///
/// Storage is reserved once at init and never grows; `push` returns what it
/// evicted so that the caller decides whether that matters.
public struct FixedRing<Element>: Sendable where Element: Sendable {
    private var storage: [Element?]
    private var head = 0  // index of the oldest element
    public private(set) var count = 0

    public init(capacity: Int) {
        precondition(capacity > 0, "a ring needs room for at least one element")
        storage = [Element?](repeating: nil, count: capacity)
    }

    public var capacity: Int { storage.count }
    public var isEmpty: Bool { count == 0 }
    public var isFull: Bool { count == storage.count }

    /// Appends `element`; on a full ring removes and returns the oldest element.
    @discardableResult
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
        count += 1
        return nil
    }

    /// Removes and returns the oldest element, or nil when empty.
    public mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head]
        storage[head] = nil
        head += 1
        if head == storage.count { head = 0 }
        count -= 1
        return element
    }

    /// The element `offset` places after the oldest one.
    public subscript(offset: Int) -> Element {
        precondition(offset >= 0 && offset < count, "offset outside the stored elements")
        var index = head + offset
        if index >= storage.count { index -= storage.count }
        return storage[index]!
    }

    public var first: Element? { count > 0 ? self[0] : nil }
    public var last: Element? { count > 0 ? self[count - 1] : nil }

    public mutating func removeAll() {
        for i in storage.indices { storage[i] = nil }
        head = 0
        count = 0
    }
}

extension FixedRing: Sequence {
    public struct Iterator: IteratorProtocol {
        let ring: FixedRing
        var offset = 0
        public mutating func next() -> Element? {
            guard offset < ring.count else { return nil }
            defer { offset += 1 }
            return ring[offset]
        }
    }

    public func makeIterator() -> Iterator { Iterator(ring: self) }
    public var underestimatedCount: Int { count }
}
