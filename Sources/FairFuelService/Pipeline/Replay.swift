import FairFuelCore
import FairFuelDomain
import FairFuelLink
import FairFuelParsers
import FairFuelStore

/// What a replay did.
public struct ReplayReport: Sendable {
    public var link: LinkCounters
    public var sessionsStarted: Int
    public var sessionsEnded: Int
    public var pointsWritten: Int
    public var sessionsEndedAtStartup: Int
    public var lastTimeMs: UInt64
}

/// Runs a capture through the live path (decoder, ingest, domain, recorder) into a store,
/// as fast as it can; time comes from the capture only, so the result is always the same.
public struct Replay {
    public let capturePath: String
    public let store: TripStore
    public var configuration: MonitorConfiguration
    public var flushPolicy: TripPointFlushPolicy

    public var nmea: NMEAConfiguration

    /// Sizes come from `board` (the Pi Zero 2 W by default), as in the live service.
    public init(capturePath: String, store: TripStore, board: BoardProfile = .piZero2W) {
        self.capturePath = capturePath
        self.store = store
        configuration = board.monitorConfiguration
        flushPolicy = board.flushPolicy
        nmea = board.nmeaConfiguration
    }

    public func run() throws -> ReplayReport {
        let endedAtStartup = try store.endSessionsLeftOpen()
        let run = try store.beginRun(note: "replay \(capturePath)")
        let directory = try store.directory()
        let vehicle = try store.vehicle()
        let monitor = DrivingMonitor(configuration: configuration, directory: directory, fuel: try FuelSetup.estimator(for: vehicle))
        var ingest = LinkIngest(monitor: monitor, nmea: nmea)
        let recorder = SessionRecorder(store: store, run: run, directory: directory, policy: flushPolicy, fuelScale: vehicle.fuelScale)
        var lastTime: UInt64 = 0
        let counters = try CaptureReading(path: capturePath, direction: .rx).run { timeMs, output in
            lastTime = timeMs
            guard case let .frame(frame) = output else { return }
            ingest.handle(frame, at: LinkMilliseconds(Int64(timeMs)), recorder.record)
        }
        ingest.finish(at: LinkMilliseconds(Int64(lastTime)), recorder.record)
        recorder.flush()
        if let error = recorder.firstError { throw error }
        return ReplayReport(
            link: counters, sessionsStarted: recorder.sessionsStarted, sessionsEnded: recorder.sessionsEnded,
            pointsWritten: recorder.pointsWritten, sessionsEndedAtStartup: endedAtStartup.count, lastTimeMs: lastTime)
    }
}

/// Builds the fuel estimator from the stored vehicle profile and its calibration.
public enum FuelSetup {
    public static func estimator(for vehicle: VehicleProfile) throws -> FuelEstimator {
        let fuelType = FuelType(rawValue: vehicle.fuelType) ?? .petrol
        let profile = try VehicleFuelProfile(
            massKilograms: vehicle.massKilograms, ratedLitersPer100Kilometers: vehicle.ratedLitersPer100km,
            idleLitersPerHour: vehicle.idleLitersPerHour, fuelType: fuelType)
        return FuelEstimator(model: FuelModel(profile: profile), calibrationFactor: vehicle.fuelScale)
    }
}
