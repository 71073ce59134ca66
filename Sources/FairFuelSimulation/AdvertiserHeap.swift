/// A binary min-heap of (next advertisement time, advertiser index).
struct AdvertiserHeap: Sendable {
    private var items: [(time: Int64, index: Int)] = []

    var top: (time: Int64, index: Int)? { items.first }

    mutating func push(time: Int64, index: Int) {
        items.append((time, index))
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard (items[child].time, items[child].index) < (items[parent].time, items[parent].index) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> (time: Int64, index: Int)? {
        guard !items.isEmpty else { return nil }
        let first = items[0]
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < items.count && (items[left].time, items[left].index) < (items[smallest].time, items[smallest].index) { smallest = left }
                if right < items.count && (items[right].time, items[right].index) < (items[smallest].time, items[smallest].index) { smallest = right }
                if smallest == parent { break }
                items.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return first
    }
}
