import Foundation
import TestSupport

/// Writes the month's daily captures on a thread of its own, a few days ahead of the replay.
final class DayCaptures: @unchecked Sendable {
    struct Day {
        var index: Int
        var path: String
        var trips: Int
        /// Sessions the truth holds up to the end of this day.
        var sessionsSoFar: Int
    }

    struct Month {
        var truth: ScenarioTruth
        var startUTCMs: Int64
        /// Time spent generating and writing the captures.
        var generation: Duration
        func utcMs(_ worldMs: Int64) -> Int64 { startUTCMs + worldMs }
    }

    let directory: String
    let seed: UInt64
    private let condition = NSCondition()
    private var ready: [Day] = []
    private var month: Month?
    private var generation = Duration.zero

    init(directory: String, seed: UInt64) {
        self.directory = directory
        self.seed = seed
    }

    func start() {
        let thread = Thread { [self] in produce() }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The next day's capture, in order; nil after the last.
    func next() -> Day? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && month == nil { condition.wait() }
        if ready.isEmpty { return nil }
        let day = ready.removeFirst()
        condition.broadcast()
        return day
    }

    /// The truth, once every day was handed out.
    func finished() -> Month {
        condition.lock()
        defer { condition.unlock() }
        while month == nil { condition.wait() }
        return month!
    }

    private func produce() {
        let clock = ContinuousClock()
        var options = ScenarioOptions(seed: seed)
        options.referenceModel = true
        var family = FamilyMonth(seed: seed, options: options)
        while true {
            let started = clock.now
            guard let day = family.day() else { break }
            let path = directory + "/day-\(day.index).ffcap"
            let bytes = ScenarioCapture.bytes(
                day.events, originMs: day.events.first?.timeMs ?? 0, comment: "family month, seed \(seed), day \(day.index)")
            FileManager.default.createFile(atPath: path, contents: Data(bytes))
            condition.lock()
            generation += clock.now - started
            while ready.count >= 3 { condition.wait() }
            ready.append(Day(index: day.index, path: path, trips: day.trips, sessionsSoFar: family.truth.sessions.count))
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        month = Month(truth: family.truth, startUTCMs: family.world.options.startUTCMs, generation: generation)
        condition.broadcast()
        condition.unlock()
    }
}
