/// What a session's track has been thinned to (`sessions.track_level`).
public enum TrackLevel: Int, Sendable, Comparable, CaseIterable {
    /// Every trip point kept (1 Hz by default).
    case full = 0
    /// Douglas–Peucker within the policy's tolerance, plus the anchors refuels need.
    case simplified = 1
    /// Only the first and last points and the anchors refuels need.
    case anchorsOnly = 2

    public static func < (lhs: TrackLevel, rhs: TrackLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
