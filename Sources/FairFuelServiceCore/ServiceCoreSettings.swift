import FairFuelCore
import FairFuelDomain
import FairFuelLink
import FairFuelParsers

/// What the core needs from the board profile and the store, as plain values (the shell
/// builds them; the core reads no file).
public struct ServiceCoreSettings {
    public var monitor: MonitorConfiguration
    public var nmea: NMEAConfiguration
    /// The MCU's serial port, for messages and `status` only.
    public var port: String
    /// Commands awaiting their ACK at most (the board's transmit queue).
    public var transmitQueueFrames: Int
    public var reconnectBackoffMinMs: Int64
    public var reconnectBackoffMaxMs: Int64
    /// Host milliseconds without a single frame after which the MCU counts as silent (hung or
    /// browned out: a UART never hangs up) and its port is closed and reopened.
    public var mcuSilenceLimitMs: Int64
    /// Link milliseconds a GNSS fix counts as current for `status` (`gnss_fix`).
    public var gnssFixFreshMs: Int64
    /// `gnss.source`: "mcu" or "gpsd"; with gpsd the MCU's NMEA frames are counted and left unused.
    public var gnssSource: String
    /// The board profile's `link.mcu_board`, for `fairfuel mcu info`.
    public var mcuBoard: String
    /// Checks an MCU's HELLO against the board catalogue: a warning, or nil when it matches.
    public var checkFirmware: (Hello) -> FirmwareCheck

    public init(
        monitor: MonitorConfiguration = MonitorConfiguration(), nmea: NMEAConfiguration = NMEAConfiguration(),
        port: String = "", transmitQueueFrames: Int = 8, reconnectBackoffMinMs: Int64 = 500, reconnectBackoffMaxMs: Int64 = 10_000,
        mcuSilenceLimitMs: Int64 = 10_000, gnssFixFreshMs: Int64 = 5_000, gnssSource: String = "mcu", mcuBoard: String = "",
        checkFirmware: @escaping (Hello) -> FirmwareCheck = { _ in .matches }
    ) {
        self.monitor = monitor
        self.nmea = nmea
        self.port = port
        self.transmitQueueFrames = transmitQueueFrames
        self.reconnectBackoffMinMs = reconnectBackoffMinMs
        self.reconnectBackoffMaxMs = reconnectBackoffMaxMs
        self.mcuSilenceLimitMs = mcuSilenceLimitMs
        self.gnssFixFreshMs = gnssFixFreshMs
        self.gnssSource = gnssSource
        self.mcuBoard = mcuBoard
        self.checkFirmware = checkFirmware
    }

    /// Whether GNSS comes from gpsd beside the link rather than the MCU's NMEA frames.
    public var gnssFromGPSD: Bool { gnssSource == "gpsd" }
}

/// An MCU's HELLO as the board catalogue judges it.
public enum FirmwareCheck: Equatable, Sendable {
    case matches
    /// The catalogue knows no such board.
    case unknownBoard
    /// The board is known and something differs (firmware too old, capabilities missing).
    case mismatches(String)
}

/// The vehicle as the fuel estimate runs on it (the store's vehicle profile, without its display fields).
public struct VehicleFuelSettings: Equatable, Sendable {
    public var massKilograms: Double
    public var ratedLitersPer100km: Double
    public var idleLitersPerHour: Double
    public var fuelType: String
    /// The calibration factor from full refuels.
    public var fuelScale: Double
    /// How untracked driving is billed, for `status`.
    public var untrackedPolicy: String

    public init(massKilograms: Double, ratedLitersPer100km: Double, idleLitersPerHour: Double, fuelType: String,
                fuelScale: Double, untrackedPolicy: String) {
        self.massKilograms = massKilograms
        self.ratedLitersPer100km = ratedLitersPer100km
        self.idleLitersPerHour = idleLitersPerHour
        self.fuelType = fuelType
        self.fuelScale = fuelScale
        self.untrackedPolicy = untrackedPolicy
    }

    /// Whether the fuel model itself differs (not just its calibration).
    func modelDiffers(from other: VehicleFuelSettings) -> Bool {
        massKilograms != other.massKilograms || ratedLitersPer100km != other.ratedLitersPer100km
            || idleLitersPerHour != other.idleLitersPerHour || fuelType != other.fuelType
    }

    /// The fuel estimator for this vehicle and its calibration.
    public func estimator() throws -> FuelEstimator {
        let profile = try VehicleFuelProfile(
            massKilograms: massKilograms, ratedLitersPer100Kilometers: ratedLitersPer100km,
            idleLitersPerHour: idleLitersPerHour, fuelType: FuelType(rawValue: fuelType) ?? .petrol)
        return FuelEstimator(model: FuelModel(profile: profile), calibrationFactor: fuelScale)
    }
}

/// The stored provisioning the core reads and changes for technicians' requests: the one
/// synchronous port of the core (rare requests, never on the per-frame path). The shell
/// implements it on the store; tests on memory.
public protocol ProvisioningRecords: AnyObject {
    /// A current driver by name, or an error naming the drivers there are.
    func driver(named name: String) throws -> DriverDirectory.Driver
    /// The driver's URI id for tags, made (with `make`) and kept on first use.
    func driverUUID(for driver: DriverID, make: () -> UUID128) throws -> UUID128
    /// Binds; false when it was bound to that driver already.
    func bind(tag: TagIdentity, to driver: DriverID) throws -> Bool
    func bind(beacon: BeaconIdentity, to driver: DriverID) throws -> Bool
    /// The drivers with their tags and beacons, as stored now.
    func directory() throws -> DriverDirectory
    /// The vehicle profile and fuel calibration, as stored now.
    func vehicle() throws -> VehicleFuelSettings
}
