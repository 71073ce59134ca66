/// What one retention pass did.
public struct RetentionReport: Sendable, Equatable {
    /// Database and WAL bytes before and after the pass.
    public var bytesOnDiskBefore: Int64 = 0
    public var bytesOnDiskAfter: Int64 = 0
    public var eventsDeleted = 0
    /// Rows of runs without a session or a replayed capture, past the newest few (`pruneRuns()`).
    public var runsDeleted = 0
    /// Full tracks older than the age limit, simplified.
    public var sessionsSimplifiedForAge = 0
    /// Full tracks simplified, oldest first, because the store was over its budget.
    public var sessionsSimplifiedForBudget = 0
    /// Simplified tracks reduced to their anchors because simplifying everything was not enough.
    public var sessionsReducedToAnchors = 0
    public var pointsRemoved = 0
    /// Receipt photos dropped, oldest refuel first, because the store was over its budget.
    public var receiptsDeleted = 0
    /// Free pages given back to the file system by incremental vacuum.
    public var pagesVacuumed = 0
    /// Still over budget with every closed track at its anchors: summaries, refuels and splits are never deleted.
    public var overBudget = false
    /// The disk reserve was given up (the disk filled) and there is not yet room to take it back.
    public var reserveMissing = false

    public init() {}

    /// True when the pass changed nothing.
    public var isEmpty: Bool {
        eventsDeleted == 0 && runsDeleted == 0 && receiptsDeleted == 0 && sessionsSimplifiedForAge == 0 && sessionsSimplifiedForBudget == 0 && sessionsReducedToAnchors == 0
            && pagesVacuumed == 0
    }
}
