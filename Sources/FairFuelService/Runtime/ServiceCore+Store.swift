import FairFuelConfiguration
import FairFuelCore
import FairFuelDomain
import FairFuelLink
import FairFuelParsers
import FairFuelServiceCore
import FairFuelStore

extension BoardProfile {
    /// The core's settings from this board, with `catalog` judging the MCU's HELLO.
    public func coreSettings(catalog: MCUBoardCatalog = .builtIn, port: String? = nil) -> ServiceCoreSettings {
        let mcuBoard = link.mcuBoard
        return ServiceCoreSettings(
            monitor: monitorConfiguration, nmea: nmeaConfiguration, port: port ?? link.port,
            transmitQueueFrames: link.transmitQueueFrames,
            reconnectBackoffMinMs: Int64(link.reconnectBackoffMinMs), reconnectBackoffMaxMs: Int64(link.reconnectBackoffMaxMs),
            mcuSilenceLimitMs: Int64(link.mcuSilenceLimitMs),
            gnssSource: gnss.source.rawValue, mcuBoard: mcuBoard,
            checkFirmware: { hello in
                guard let profile = catalog.profile(named: mcuBoard) ?? catalog.profile(for: hello) else { return .unknownBoard }
                let mismatches = profile.mismatches(with: hello)
                return mismatches.isEmpty ? .matches : .mismatches(mismatches.map(\.description).joined(separator: "; "))
            })
    }
}

extension VehicleProfile {
    /// What the fuel estimate needs of the stored vehicle.
    public var fuelSettings: VehicleFuelSettings {
        VehicleFuelSettings(
            massKilograms: massKilograms, ratedLitersPer100km: ratedLitersPer100km, idleLitersPerHour: idleLitersPerHour,
            fuelType: fuelType, fuelScale: fuelScale, untrackedPolicy: untrackedPolicy.rawValue)
    }
}

/// The core's provisioning port on the store: technicians' requests look drivers up and bind here.
final class StoreProvisioningRecords: ProvisioningRecords {
    let store: TripStore
    init(store: TripStore) { self.store = store }

    func driver(named name: String) throws -> DriverDirectory.Driver {
        // The same rules as the CLI's (ArgumentValidation): a request line is typed input too.
        _ = try ArgumentValidation.name(name, argument: "DRIVER")
        let record = try store.requireDriver(named: name)
        return DriverDirectory.Driver(id: record.id, name: record.name)
    }

    func driverUUID(for driver: DriverID, make: () -> UUID128) throws -> UUID128 {
        try store.driverUUID(for: driver, make: make)
    }

    func bind(tag: TagIdentity, to driver: DriverID) throws -> Bool { try store.bind(tag: tag, to: driver) }
    func bind(beacon: BeaconIdentity, to driver: DriverID) throws -> Bool { try store.bind(beacon: beacon, to: driver) }
    func directory() throws -> DriverDirectory { try store.directory() }
    func vehicle() throws -> VehicleFuelSettings { try store.vehicle().fuelSettings }
}
