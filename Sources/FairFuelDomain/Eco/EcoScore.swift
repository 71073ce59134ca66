/// A driver's eco score, 0 (wasteful) to 100 (gentle), from three penalties (README, "Eco score"):
///
///     score = 100 − min(40, 5 · H) − min(30, 60 · I) − min(30, 100 · max(0, C / R − 1))
///
/// H: harsh accelerations and brakings per 100 km; I: idle share of the driving time (0…1);
/// C: the driver's estimated L/100 km; R: the vehicle's rated L/100 km. Rounded half up.
public enum EcoScore {
    /// Less distance than this says nothing about a style: no score.
    public static let minimumMeters = 1_000.0

    /// nil below `minimumMeters` or without a driving time.
    public static func score(harshEvents: Int, meters: Double, idleMs: Int64, durationMs: Int64, liters: Double,
                             ratedLitersPer100km: Double) -> Int? {
        guard meters >= minimumMeters, durationMs > 0 else { return nil }
        let harshPer100km = Double(harshEvents) / meters * 100_000
        let idleShare = min(1, max(0, Double(idleMs) / Double(durationMs)))
        let consumption = liters / meters * 100_000
        let excess = ratedLitersPer100km > 0 ? max(0, consumption / ratedLitersPer100km - 1) : 0
        let value = 100 - min(40, 5 * harshPer100km) - min(30, 60 * idleShare) - min(30, 100 * excess)
        return Int(max(0, min(100, value)).rounded(.toNearestOrAwayFromZero))
    }
}
