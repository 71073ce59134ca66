/// Link traffic as the service runs of a restarted service see it: the replay tests cut one
/// recorded stream where the service was killed (or the dongle powered up) and replay each part
/// as a run of its own on one store.
public enum ServiceRestarts {
    /// Where a run ended, and how much traffic after it the next one never read (a killed
    /// process loses a few seconds; a power-up loses nothing, the capture has a gap there).
    public struct Cut: Sendable {
        public var atMs: Int64
        public var lostMs: Int64

        public init(atMs: Int64, lostMs: Int64) {
            self.atMs = atMs
            self.lostMs = lostMs
        }
    }

    /// Splits time-ordered `items` into one part per run. A part's times count from its own
    /// start (`retimed`), and a part after a cut begins with the MCU's HELLO: the new service
    /// asks for one, or the MCU that just booted has sent its own (then it is the first item).
    public static func parts<Item>(
        of items: some Sequence<Item>, cuts: [Cut], timeMs: (Item) -> Int64, isHello: (Item) -> Bool,
        retimed: (Item, _ timeMs: Int64) -> Item
    ) -> [[Item]] {
        var parts: [[Item]] = [[]]
        var originMs: Int64 = 0
        var cutIndex = 0
        var lastHello: Item?
        var needsHello = false
        for item in items {
            let time = timeMs(item)
            while cutIndex < cuts.count && time >= cuts[cutIndex].atMs {
                parts.append([])
                originMs = cuts[cutIndex].atMs + cuts[cutIndex].lostMs
                needsHello = true
                cutIndex += 1
            }
            let hello = isHello(item)
            if hello { lastHello = item }
            if time < originMs { continue }  // lost while the service was down
            if needsHello {
                if !hello, let lastHello { parts[parts.count - 1].append(retimed(lastHello, 0)) }
                needsHello = false
            }
            parts[parts.count - 1].append(retimed(item, time - originMs))
        }
        return parts
    }
}
