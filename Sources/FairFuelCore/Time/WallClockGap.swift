/// A stretch of wall-clock time a zone skips (the clocks jump forward: spring in Europe).
public struct WallClockGap: Sendable, Equatable {
    /// The first skipped wall time and the first shown again, in milliseconds since 1970-01-01T00:00 of the wall clock.
    public var fromLocalMs: Int64
    public var toLocalMs: Int64
    /// The offsets from UTC before and after the jump.
    public var offsetBeforeSeconds: Int
    public var offsetAfterSeconds: Int
}
