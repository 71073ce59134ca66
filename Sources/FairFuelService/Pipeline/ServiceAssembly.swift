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

extension ServiceAssembly {
    /// What every shell does with the core's actions on the store (the live runtime, a replay, the
    /// tests' store rigs): the one place they meet the recorder. False for any other action, which
    /// the shell performs itself (sending, answering, the uplink, systemd).
    @discardableResult
    public static func performOnStore(
        _ action: ServiceAction, core: ServiceCore, recorder: SessionRecorder, store: TripStore, logger: Logger = .disabled
    ) -> Bool {
        switch action {
        case let .record(output):
            recorder.record(output)
        case let .recordLinkErrors(counts, at):
            recorder.recordLinkErrors(counts, at: at)
        case .retryStoreWrites:
            recorder.retryStoreWrites()
        case let .enforceRetention(nowUTCMs):
            recorder.flush()
            // A failed pass deletes nothing; the next hour tries again.
            do {
                let report = try store.enforceRetention(nowUTCMs: nowUTCMs)
                logger.debug("retention: \(report)")
            } catch {
                logger.warning("retention pass failed: \(error)")
            }
        case .provisioningChanged:
            recorder.update(directory: core.directory)
            recorder.fuelScale = core.vehicle.fuelScale
        case .send, .complete, .status, .reopenLink, .driverChanged, .recordsQueued:
            return false
        }
        return true
    }

    /// `performOnStore` with this assembly's core and recorder.
    @discardableResult
    public func performOnStore(_ action: ServiceAction, store: TripStore, logger: Logger = .disabled) -> Bool {
        Self.performOnStore(action, core: core, recorder: recorder, store: store, logger: logger)
    }
}
