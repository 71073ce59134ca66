import FairFuelCore
import FairFuelDomain

/// What `RecorderCore` asks its shell to do to the store. The shell performs each at once and
/// answers with a `StoreReply`; the core never touches the store itself.
public enum StoreIntent {
    /// This run's row, when start-up could not write it (a full disk); answered with `.runBegun`.
    case beginRun(note: String)
    /// Stamps the run's sessions still without UTC, now that it is known.
    case anchorRun(Int64, offsetMs: Int64)
    /// A session's row, durably; answered with `.sessionOpened`.
    case openSession(driver: DriverID, driverName: String, run: Int64, startLinkMs: Int64, startUTCMs: Int64?, fuelScale: Double)
    /// A session's end; `anchor` stamps the record's link times in UTC.
    case closeSession(SessionID, record: SessionRecord, anchor: UTCAnchor)
    /// A session continues `previous` (nil: it is taken up again itself), absorbing held untracked rows.
    case markContinued(SessionID, from: SessionID?, absorbing: [Int64])
    /// An ended session is open again, absorbing held untracked rows.
    case reopenSession(SessionID, absorbing: [Int64], checkpoint: TripCheckpoint?)
    /// The trip left open at start-up does not go on: it ends at its last stored point.
    case endSessionsLeftOpen(only: SessionID)
    /// A batch of trip points (the core's buffer, lent for the call).
    case appendTripPoints([StoredTripPoint])
    case addUntracked(UntrackedRecord, fuelScale: Double)
    /// An event-log row; `keepingAtMost`: rows of its kind kept, the oldest going first (nil: no cap).
    case logEvent(kind: String, detail: String, utcMs: Int64?, keepingAtMost: Int?)
    /// Adds to the store's loss counters (`newEpisode`: the first addition of a full-disk episode).
    case addLosses(StoreLosses, newEpisode: Bool)
    /// The last try at shutdown: spend the disk reserve so that what waits may go in. Always `.done`.
    case relieveDiskPressure

    /// Untracked driving stamped in UTC, waiting for the store.
    public struct UntrackedRecord: Sendable, Equatable {
        public var fromUTCMs: Int64
        public var toUTCMs: Int64
        public var distanceMeters: Double
        public var fuelLiters: Double
        public var candidates: [DriverID]
    }
}

/// The store's answer to one `StoreIntent`.
public enum StoreReply: Equatable, Sendable {
    case done
    case runBegun(Int64)
    case sessionOpened(SessionID)
    /// The store refused (a full disk, a read-only file system, any error), described for the log.
    case refused(String)
}

/// The shell's performer of store intents; called synchronously, never stored.
public typealias StoreIntents = (StoreIntent) -> StoreReply
