import FairFuelCore
import Testing

@Suite struct FixedRingTests {
    /// Every capacity x start slot x push count up to 6, checked against an Array model.
    @Test func matchesArrayModelForEveryLayout() {
        for capacity in 1...6 {
            for start in 0..<capacity {
                for pushes in 0...capacity * 2 + 1 {
                    var ring = FixedRing<Int>(capacity: capacity)
                    for value in 0..<start { ring.push(-value - 1) }
                    for _ in 0..<start { _ = ring.popFirst() }
                    var model: [Int] = []
                    for value in 0..<pushes {
                        let evicted = ring.push(value)
                        model.append(value)
                        if model.count > capacity {
                            #expect(evicted == model.removeFirst())
                        } else {
                            #expect(evicted == nil)
                        }
                        #expect(Array(ring) == model, "capacity \(capacity) start \(start)")
                        #expect(ring.count == model.count)
                        #expect(ring.first == model.first)
                        #expect(ring.last == model.last)
                    }
                    while let value = ring.popFirst() {
                        #expect(value == model.removeFirst())
                    }
                    #expect(model.isEmpty)
                    #expect(ring.capacity == capacity)
                }
            }
        }
    }

    @Test func removeAllKeepsCapacity() {
        var ring = FixedRing<String>(capacity: 2)
        ring.push("a")
        ring.push("b")
        ring.removeAll()
        #expect(ring.isEmpty)
        #expect(ring.push("c") == nil)
        #expect(Array(ring) == ["c"])
    }
}
