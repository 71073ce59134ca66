import HummingbirdBcrypt
import Synchronization

/// What a login for a name nobody has is checked against: a hash of a random password, made once per
/// cost (bcrypt's costs are 4 to 31, so at most 28 are kept), at the cost of the stored users' hashes.
final class UnknownUserHash: Sendable {
    private let byCost = Mutex<[UInt8: String]>([:])

    /// The hash at `cost`, made at the first call (blocking: call it off the event loops).
    func hash(cost: UInt8) -> String {
        if let made = byCost.withLock({ $0[cost] }) { return made }
        let made = Bcrypt.hash(WebApp.randomToken(), cost: cost)
        return byCost.withLock { hashes in
            if let first = hashes[cost] { return first }
            hashes[cost] = made
            return made
        }
    }
}
