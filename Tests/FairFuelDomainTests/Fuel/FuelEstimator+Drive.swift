import FairFuelCore
import FairFuelDomain

/// Drives an estimator over a 1 Hz speed trace.
extension FuelEstimator {
    /// Feeds `speeds` (m/s, one per second from `startMs`), then pauses; returns litres per 100 km.
    @discardableResult
    mutating func drive(_ speeds: [Double], startMs: Int64 = 0, stepMs: Int64 = 1_000) -> Double {
        let litersBefore = modelLiters.value
        let metersBefore = distance.value
        for (index, speed) in speeds.enumerated() {
            add(timeMs: startMs + Int64(index) * stepMs, speed: MetersPerSecond(speed))
        }
        pause()
        return (modelLiters.value - litersBefore) / ((distance.value - metersBefore) / 1_000) * 100
    }
}
