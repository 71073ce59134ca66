import Synchronization

/// Stripped receipt photos waiting for their refuel's confirmation (a price far from the usual one,
/// a settled period): the confirm form carries a token instead of the photo. Each waits `lifetime`
/// and belongs to the user who sent it; at most `capacityBytes` wait in all, the oldest forgotten
/// first, so uploads that are never confirmed cannot grow it.
final class PendingReceipts: Sendable {
    struct Entry {
        var userID: Int64
        var receipt: ReceiptImage
        var keptAt: ContinuousClock.Instant
    }

    let lifetime: Duration
    let capacityBytes: Int
    private let entries = Mutex<[String: Entry]>([:])

    init(lifetime: Duration = .seconds(15 * 60), capacityBytes: Int) {
        self.lifetime = lifetime
        self.capacityBytes = capacityBytes
    }

    /// Keeps `receipt` for `userID`; returns the token that takes it back.
    func keep(_ receipt: ReceiptImage, userID: Int64, now: ContinuousClock.Instant = .now) -> String {
        let token = WebApp.randomToken()
        entries.withLock { entries in
            entries = entries.filter { now - $0.value.keptAt < lifetime }
            while !entries.isEmpty, entries.values.reduce(0, { $0 + $1.receipt.bytes.count }) + receipt.bytes.count > capacityBytes,
                  let oldest = entries.min(by: { $0.value.keptAt < $1.value.keptAt })?.key
            {
                entries[oldest] = nil
            }
            entries[token] = Entry(userID: userID, receipt: receipt, keptAt: now)
        }
        return token
    }

    /// The photo kept under `token` for `userID`, forgotten here; nil when it waited too long, was
    /// pushed out, or is someone else's.
    func take(_ token: String, userID: Int64, now: ContinuousClock.Instant = .now) -> ReceiptImage? {
        entries.withLock { entries in
            guard let entry = entries[token], entry.userID == userID else { return nil }
            entries[token] = nil
            return now - entry.keptAt < lifetime ? entry.receipt : nil
        }
    }

    var waitingBytes: Int { entries.withLock { $0.values.reduce(0) { $0 + $1.receipt.bytes.count } } }
}
