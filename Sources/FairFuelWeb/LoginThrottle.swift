import Synchronization

/// Failed logins per key (a user name, a client address): after `allowed` failures a key waits before
/// it may try again, `firstWait` (longer than a bcrypt check), then twice that after each further failure,
/// up to `longestWait`, whatever the
/// password; other keys are not held up. An attempt is counted when it starts (before bcrypt), so
/// guesses sent together cannot all pass the check; a success clears its keys. A key is forgotten after
/// twice `longestWait` without an attempt. At most `capacity` keys are remembered (the oldest forgotten
/// first), so a flood of names or addresses cannot grow it without bound.
final class LoginThrottle: Sendable {
    struct Entry {
        var failures: Int
        var lastFailure: ContinuousClock.Instant
    }

    let allowed: Int
    let firstWait: Duration
    let longestWait: Duration
    let capacity: Int
    private let entries = Mutex<[String: Entry]>([:])

    init(allowed: Int, firstWait: Duration = .seconds(10), longestWait: Duration, capacity: Int = 4096) {
        self.allowed = allowed
        self.firstWait = firstWait
        self.longestWait = longestWait
        self.capacity = capacity
    }

    /// How long a key that failed `failures` times waits after its last failure.
    func wait(afterFailures failures: Int) -> Duration {
        guard failures >= allowed else { return .zero }
        let doublings = min(failures - allowed, 30)
        return min(longestWait, firstWait * (1 << doublings))
    }

    /// Seconds to wait before any of `keys` may try again (nothing counted), or nil: the attempt is
    /// counted against every key now, to be cleared by `succeeded` when the password is right.
    func attempt(_ keys: [String], now: ContinuousClock.Instant = .now) -> Int? {
        entries.withLock { entries in
            var longest = Duration.zero
            for key in keys {
                guard let entry = entries[key] else { continue }
                if now - entry.lastFailure >= longestWait * 2 {
                    entries[key] = nil
                    continue
                }
                longest = max(longest, entry.lastFailure + wait(afterFailures: entry.failures) - now)
            }
            if longest > .zero {
                let (seconds, attoseconds) = longest.components
                return Int(seconds) + (attoseconds > 0 ? 1 : 0)
            }
            for key in keys {
                if entries[key] == nil, entries.count >= capacity,
                   let oldest = entries.min(by: { $0.value.lastFailure < $1.value.lastFailure })?.key
                {
                    entries[oldest] = nil
                }
                var entry = entries[key] ?? Entry(failures: 0, lastFailure: now)
                entry.failures += 1
                entry.lastFailure = now
                entries[key] = entry
            }
            return nil
        }
    }

    func succeeded(_ keys: [String]) {
        entries.withLock { entries in
            for key in keys { entries[key] = nil }
        }
    }

    var rememberedKeys: Int { entries.withLock { $0.count } }
}
