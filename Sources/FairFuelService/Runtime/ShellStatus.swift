import FairFuelCore

/// What only the shell knows, for `status`: its store, its recorder, its gpsd connection and the uplink.
struct ShellStatus {
    /// The store's size on disk: database, WAL and shared-memory index (the reserve apart).
    var storeBytes: Int64?
    /// The database file alone (committed pages not yet checkpointed are in the WAL).
    var storeDatabaseBytes: Int64?
    var storeWALBytes: Int64?
    /// The disk reserve beside the store (0 while given up for a full disk).
    var storeReserveBytes: Int64?
    var sessionsResumed = 0
    var tripPointsWritten = 0
    var storeRefusingWrites = false
    var storePendingRecords = 0
    /// What earlier runs and this one could not keep, and how much of it is not yet in the store's counters.
    var storeLost = StoreLosses()
    var storeLostUnsaved = 0
    /// gpsd's connection, with gpsd as the GNSS source.
    var gpsd: (connected: Bool, fixes: Int)?
    /// The estimated fuel in the tank (nil before a full-tank refuel or when the store cannot be read).
    var tankLiters: Double?
    /// What happened to the store file (`store_note`); nil when nothing did.
    var storeNote: String?
    /// The uplink's object (`UplinkPublisher.statusJSON`); nil without an uplink.
    var uplinkJSON: String?
}
