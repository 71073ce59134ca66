/// What start-up found and did.
public struct StoreStartupReport: Sendable, Equatable {
    /// There was no file: a new store was created.
    public var created = false
    /// Where a corrupt or unreadable store went (with its WAL), nil when it was sound.
    public var movedAsidePath: String?
    /// What the open or the integrity check said about that file.
    public var problems: [String] = []
    /// What was copied from the moved file into the new store; nil when nothing was moved.
    public var salvage: StoreSalvage?

    public init() {}
}
