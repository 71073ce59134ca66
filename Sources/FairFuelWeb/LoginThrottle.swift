import Synchronization

/// Failed logins per address: after `allowed` failures an address waits `lockout` before it may try
/// again, whatever the password; another address is not held up. At most `capacity` addresses are
/// remembered (the oldest forgotten first), so a flood of addresses cannot grow it without bound.
final class LoginThrottle: Sendable {
    struct Entry {
        var failures: Int
        var lastFailure: ContinuousClock.Instant
    }

    let allowed: Int
    let lockout: Duration
    let capacity: Int
    private let entries = Mutex<[String: Entry]>([:])

    init(allowed: Int, lockout: Duration, capacity: Int = 4096) {
        self.allowed = allowed
        self.lockout = lockout
        self.capacity = capacity
    }

    /// Seconds `address` must still wait, or nil when it may try.
    func waitSeconds(_ address: String, now: ContinuousClock.Instant = .now) -> Int? {
        entries.withLock { entries in
            guard let entry = entries[address], entry.failures >= allowed else { return nil }
            let left = entry.lastFailure + lockout - now
            guard left > .zero else {
                entries[address] = nil
                return nil
            }
            return max(1, Int(left.components.seconds))
        }
    }

    func failed(_ address: String, now: ContinuousClock.Instant = .now) {
        entries.withLock { entries in
            if entries[address] == nil, entries.count >= capacity,
               let oldest = entries.min(by: { $0.value.lastFailure < $1.value.lastFailure })?.key
            {
                entries[oldest] = nil
            }
            var entry = entries[address] ?? Entry(failures: 0, lastFailure: now)
            entry.failures += 1
            entry.lastFailure = now
            entries[address] = entry
        }
    }

    func succeeded(_ address: String) {
        entries.withLock { $0[address] = nil }
    }

    var rememberedAddresses: Int { entries.withLock { $0.count } }
}
