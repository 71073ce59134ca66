import FairFuelConfiguration
import FairFuelCore
import FairFuelDomain
import FairFuelServiceCore
import FairFuelStore

/// The service's core and the recorder that stores its output, built on a store from a board
/// profile: the one way the live runtime, a capture replay and the tests' store rigs set up the
/// pipeline, so that a replay reproduces what the service would have stored.
///
/// Building it reads the store (drivers, vehicle, the trip that may go on), ends open sessions
/// older than that trip and begins this run's row; it opens and closes nothing.
public struct ServiceAssembly {
    /// Everything the service decides.
    public let core: ServiceCore
    /// Writes the core's `.record` actions into the store.
    public let recorder: SessionRecorder
    /// The trip the store said may go on (continuity rules), offered to the core; nil: none.
    public let resumed: TripToContinue?
    /// Sessions left open by an earlier run that ended at start-up (power_loss).
    public let sessionsEndedAtStartup: Int

    /// `beginRun` writes this run's row (after the open sessions were settled) and returns its
    /// id, or nil when the store refuses it for now (the recorder writes it when it can).
    public init(
        board: BoardProfile, store: TripStore, catalog: MCUBoardCatalog = .builtIn, port: String? = nil,
        logger: Logger = .disabled, beginRun: (TripStore) throws -> Int64?
    ) throws {
        let settings = board.coreSettings(catalog: catalog, port: port)
        // The last trip may go on (continuity rules); older open sessions end.
        let openBefore = try store.openSessionCount()
        let resumable = try store.tripToContinue(motion: settings.monitor.motion, session: settings.monitor.session)
        sessionsEndedAtStartup = openBefore - (resumable?.trip.isOpen == true ? 1 : 0)
        let run = try beginRun(store)
        core = try ServiceCore(
            settings: settings, records: StoreProvisioningRecords(store: store), resuming: resumable?.trip, logger: logger)
        recorder = SessionRecorder(
            store: store, run: run, directory: core.directory, policy: board.flushPolicy, fuelScale: core.vehicle.fuelScale,
            pendingRecordsMax: board.store.pendingRecordsMax, continuing: resumable?.session,
            holding: resumable?.heldUntracked ?? [])
        recorder.logger = logger
        resumed = resumable
    }
}
