import FairFuelCore
import Testing

@Suite struct ByteRingTests {
    /// Every capacity x start slot x fill count up to 6, checked against an Array model.
    @Test func matchesArrayModelForEveryLayout() {
        for capacity in 1...6 {
            for start in 0..<capacity {
                for fill in 0...capacity + 2 {
                    var ring = ByteRing(capacity: capacity)
                    // Move head to `start` by writing and popping.
                    ring.write([UInt8](repeating: 0xEE, count: start))
                    ring.removeFirst(start)
                    var model: [UInt8] = []
                    let input = (0..<fill).map { UInt8($0 + 1) }
                    let stored = ring.write(input)
                    model.append(contentsOf: input.prefix(capacity))
                    #expect(stored == min(fill, capacity))
                    #expect(ring.bytes == model, "capacity \(capacity) start \(start) fill \(fill)")
                    #expect(ring.refusedByteCount == UInt64(max(0, fill - capacity)))
                    #expect(ring.count == model.count)
                    #expect(ring.freeCount == capacity - model.count)
                    for offset in 0..<model.count { #expect(ring[offset] == model[offset]) }
                    // Pop one, then write two: wrap-around after a partial drain.
                    if let popped = ring.popFirst() {
                        #expect(popped == model.removeFirst())
                    }
                    let extra: [UInt8] = [0xA1, 0xA2]
                    let more = ring.write(extra)
                    model.append(contentsOf: extra.prefix(capacity - model.count))
                    #expect(more == min(2, capacity - (model.count - more)))
                    #expect(ring.bytes == model)
                    var drained: [UInt8] = []
                    ring.drain { drained.append(contentsOf: $0) }
                    #expect(drained == model)
                    #expect(ring.isEmpty)
                }
            }
        }
    }

    @Test func neverGrowsPastCapacity() {
        var ring = ByteRing(capacity: 16)
        var generator = SeededGeneratorLite(seed: 7)
        for _ in 0..<10_000 {
            let n = Int(generator.next() % 9)
            ring.write([UInt8](repeating: 1, count: n))
            #expect(ring.count <= 16)
            ring.removeFirst(Int(generator.next() % UInt64(ring.count + 1)))
        }
        #expect(ring.capacity == 16)
    }

    @Test func popFromEmptyIsNil() {
        var ring = ByteRing(capacity: 3)
        #expect(ring.popFirst() == nil)
        ring.write([9])
        #expect(ring.popFirst() == 9)
        #expect(ring.popFirst() == nil)
    }
}

/// Local generator: Core tests avoid depending on more than they test.
struct SeededGeneratorLite {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 11
    }
}
