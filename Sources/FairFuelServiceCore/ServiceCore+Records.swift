import FairFuelCore
import FairFuelDomain

extension ServiceCore {
    /// The core on its provisioning records: the drivers and the vehicle as `records` hold them
    /// now. Every shell builds its core this way (the runtime and replays through
    /// `ServiceAssembly`, on the store; the tests' rigs on memory).
    public convenience init(
        settings: ServiceCoreSettings, records: ProvisioningRecords, resuming trip: InterruptedTrip? = nil, logger: Logger = .disabled
    ) throws {
        try self.init(
            settings: settings, directory: try records.directory(), vehicle: try records.vehicle(), resuming: trip,
            records: records, logger: logger)
    }
}
