import FairFuelConfiguration

extension BoardProfile {
    /// When buffered trip points are written (the session recorder's policy, so it lives beside it).
    public var flushPolicy: TripPointFlushPolicy {
        TripPointFlushPolicy(flushIntervalMs: Int64(store.tripPointFlushSeconds) * 1000, flushPoints: store.tripPointFlushPoints)
    }
}
