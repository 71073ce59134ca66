/// How much the store keeps: the board profile's `[store]` budget, age limit and event cap.
public struct RetentionPolicy: Sendable, Equatable {
    /// Most the database, its WAL and the disk reserve may take on disk, in bytes.
    public var diskBudgetBytes: Int64
    /// Full-rate trip points older than this are thinned to a simplified track.
    public var tripPointMaxAgeDays: Int
    /// Rows kept in the event log; the oldest go first.
    public var eventLogMaxRows: Int
    /// Pruning for the budget starts past this share of it, in percent (room for the driving
    /// between two retention passes).
    public var pruneStartPercent: Int
    /// Pruning for the budget stops once the store is back under this share of it, in percent.
    public var pruneTargetPercent: Int
    /// Largest sideways error of a simplified track, in metres.
    public var simplifiedToleranceMeters: Double
    /// Longest stretch of a simplified track without a kept point, in milliseconds.
    public var simplifiedMaximumGapMs: Int64
    /// Space held in a reserve file beside the database and given up when the disk fills, so
    /// that the store can still checkpoint, thin old tracks and give pages back; 0 for none.
    public var diskReserveBytes: Int64
    /// The WAL's size limit in bytes (the board's `wal_limit_bytes`); nil: derived from the budget.
    public var walLimitBytes: Int64?

    /// The Pi Zero 2 W defaults: 2 GiB, 400 days, 20 000 events.
    public init(diskBudgetBytes: Int64 = 2_147_483_648, tripPointMaxAgeDays: Int = 400, eventLogMaxRows: Int = 20_000,
                pruneStartPercent: Int = 95, pruneTargetPercent: Int = 90, simplifiedToleranceMeters: Double = 10, simplifiedMaximumGapMs: Int64 = 300_000,
                diskReserveBytes: Int64 = 1 << 20) {
        self.diskBudgetBytes = diskBudgetBytes
        self.tripPointMaxAgeDays = tripPointMaxAgeDays
        self.eventLogMaxRows = eventLogMaxRows
        self.pruneStartPercent = pruneStartPercent
        self.pruneTargetPercent = pruneTargetPercent
        self.simplifiedToleranceMeters = simplifiedToleranceMeters
        self.simplifiedMaximumGapMs = simplifiedMaximumGapMs
        self.diskReserveBytes = diskReserveBytes
    }

    /// Bytes the WAL may keep between checkpoints: `walLimitBytes`, else 4 MiB, or a sixteenth of a small budget (at least 256 KiB).
    public var walAllowanceBytes: Int64 { walLimitBytes.map { max(64 * 1024, $0) } ?? max(256 * 1024, min(4 * 1024 * 1024, diskBudgetBytes / 16)) }

    /// The reserve file's size: `diskReserveBytes`, at most a sixteenth of the budget.
    public var reserveBytes: Int64 { max(0, min(diskReserveBytes, diskBudgetBytes / 16)) }

    /// Past this many bytes, pruning for the budget starts.
    public var pruneStartBytes: Int64 { diskBudgetBytes / 100 * Int64(max(10, min(100, pruneStartPercent))) }

    /// Where pruning for the budget aims, in bytes.
    public var pruneTargetBytes: Int64 { min(pruneStartBytes, diskBudgetBytes / 100 * Int64(max(10, min(100, pruneTargetPercent)))) }
}
