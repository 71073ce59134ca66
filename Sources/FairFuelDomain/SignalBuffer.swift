import FairFuelCore

/// The few signals one machine call produces, held inline so that handling them allocates nothing.
struct SignalBuffer {
    static let capacity = 8
    private var items = InlineArray<8, SessionSignal?>(repeating: nil)
    private(set) var count = 0

    mutating func append(_ signal: SessionSignal) {
        precondition(count < SignalBuffer.capacity, "a session transition emits at most 8 signals")
        items[count] = signal
        count += 1
    }

    subscript(index: Int) -> SessionSignal { items[index]! }
}
