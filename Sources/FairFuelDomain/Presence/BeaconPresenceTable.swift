import FairFuelCore
import FairFuelParsers

/// Beacons in range: smoothed RSSI with hysteresis, in a table of fixed capacity.
///
/// Every entry and its RSSI window are allocated at init; observing a beacon
/// never allocates. When the table is full, an unknown (unprovisioned) beacon
/// seen least recently is evicted first; provisioned beacons are evicted only
/// for other provisioned ones.
public struct BeaconPresenceTable: Sendable {
    public struct Entry: Sendable {
        public fileprivate(set) var identity: BeaconIdentity
        /// The driver this beacon belongs to; nil for a stranger's beacon.
        public fileprivate(set) var driver: DriverID?
        fileprivate var window: FixedRing<Int8>
        public fileprivate(set) var lastSeen: LinkMilliseconds
        /// The last sighting while present; the absence countdown runs from here.
        public fileprivate(set) var lastPresent: LinkMilliseconds?
        /// Hysteresis state from the smoothed RSSI.
        public fileprivate(set) var inRange: Bool
        /// The first identity of the advertisement this one was last heard in, when that is
        /// another: both come from one fob (an iBeacon from a stable address is two identities).
        public fileprivate(set) var heardWith: BeaconIdentity?
        fileprivate var inUse: Bool

        /// Mean RSSI over the window, in dBm.
        public var smoothedRSSIDBm: Double {
            guard !window.isEmpty else { return -127 }
            var sum = 0
            for sample in window { sum += Int(sample) }
            return Double(sum) / Double(window.count)
        }
    }

    public let capacity: Int
    public let thresholds: SessionThresholds
    /// A beacon not heard for this long is out of range whatever its last RSSI.
    public let silenceTimeoutMs: Int64
    private var entries: [Entry]
    /// Beacons that could not be tracked because the table was full of provisioned ones.
    public private(set) var refusedCount: UInt64 = 0
    public private(set) var evictedCount: UInt64 = 0

    public init(capacity: Int, windowSamples: Int, thresholds: SessionThresholds, silenceTimeoutMs: Int64 = 10_000) {
        precondition(capacity > 0 && windowSamples > 0)
        self.capacity = capacity
        self.thresholds = thresholds
        self.silenceTimeoutMs = silenceTimeoutMs
        let blank = Entry(
            identity: .address(BLEAddress(rawValue: 0)), driver: nil,
            window: FixedRing(capacity: windowSamples), lastSeen: LinkMilliseconds(0), lastPresent: nil,
            inRange: false, heardWith: nil, inUse: false)
        entries = (0..<capacity).map { _ in
            var entry = blank
            entry.window = FixedRing(capacity: windowSamples)
            return entry
        }
    }

    /// Records one advertisement of `identity` at `rssiDBm`; `heardWith`: the advertisement's
    /// first identity when it is not this one (for `status`, which lists a fob once).
    public mutating func observe(
        _ identity: BeaconIdentity, driver: DriverID?, rssiDBm: Int8, at time: LinkMilliseconds, heardWith: BeaconIdentity? = nil
    ) {
        let index: Int
        if let found = indexOf(identity) {
            index = found
        } else if let slot = freeSlot(forKnown: driver != nil) {
            index = slot
            entries[index].identity = identity
            entries[index].window.removeAll()
            entries[index].lastPresent = nil
            entries[index].inRange = false
            entries[index].inUse = true
        } else {
            refusedCount += 1
            return
        }
        entries[index].driver = driver
        entries[index].heardWith = heardWith
        if time.value - entries[index].lastSeen.value > silenceTimeoutMs {
            // After a silence the old samples say nothing about now.
            entries[index].window.removeAll()
        }
        entries[index].window.push(rssiDBm)
        entries[index].lastSeen = time
        let smoothed = entries[index].smoothedRSSIDBm
        if entries[index].inRange {
            if smoothed <= Double(thresholds.absentRSSIDBm) { entries[index].inRange = false }
        } else if smoothed >= Double(thresholds.presentRSSIDBm) {
            entries[index].inRange = true
        }
        if entries[index].inRange { entries[index].lastPresent = time }
    }

    /// Whether `driver` has a beacon present at `now` (heard recently with a strong enough signal).
    public func isPresent(driver: DriverID, at now: LinkMilliseconds) -> Bool {
        for entry in entries where entry.inUse && entry.driver == driver {
            if entry.inRange, let last = entry.lastPresent, now.value - last.value <= silenceTimeoutMs {
                return true
            }
        }
        return false
    }

    /// The last moment `driver` was present, over all their beacons; nil if never while tracked.
    public func lastPresent(driver: DriverID) -> LinkMilliseconds? {
        var latest: LinkMilliseconds?
        for entry in entries where entry.inUse && entry.driver == driver {
            if let last = entry.lastPresent, latest == nil || last > latest! { latest = last }
        }
        return latest
    }

    /// Re-labels tracked beacons after provisioning changed (`driverFor` maps identity to driver).
    public mutating func relabel(_ driverFor: (BeaconIdentity) -> DriverID?) {
        for index in entries.indices where entries[index].inUse {
            entries[index].driver = driverFor(entries[index].identity)
        }
    }

    /// Entries heard within the silence timeout, strongest first (allocates; for status and learning).
    public func inRange(at now: LinkMilliseconds) -> [Entry] {
        entries.filter { $0.inUse && now.value - $0.lastSeen.value <= silenceTimeoutMs }
            .sorted { $0.smoothedRSSIDBm > $1.smoothedRSSIDBm }
    }

    /// Number of entries in use (never above `capacity`).
    public var trackedCount: Int { entries.reduce(0) { $0 + ($1.inUse ? 1 : 0) } }

    private func indexOf(_ identity: BeaconIdentity) -> Int? {
        for index in entries.indices where entries[index].inUse && entries[index].identity == identity {
            return index
        }
        return nil
    }

    private mutating func freeSlot(forKnown isKnown: Bool) -> Int? {
        var oldestUnknown: Int?
        var oldestKnown: Int?
        for index in entries.indices {
            let entry = entries[index]
            if !entry.inUse { return index }
            if entry.driver == nil {
                if oldestUnknown == nil || entry.lastSeen < entries[oldestUnknown!].lastSeen { oldestUnknown = index }
            } else if oldestKnown == nil || entry.lastSeen < entries[oldestKnown!].lastSeen {
                oldestKnown = index
            }
        }
        if let victim = oldestUnknown ?? (isKnown ? oldestKnown : nil) {
            evictedCount += 1
            entries[victim].inUse = false
            return victim
        }
        return nil
    }
}
