import FairFuelCore
import FairFuelDomain
import FairFuelLink
import FairFuelParsers

/// Provisioning reloads: what the family and technicians change, taken while the service runs.
extension ServiceCore {
    /// Re-reads what the family and technicians change (SIGHUP, the control socket's `reload`):
    /// the drivers with their tags and beacons, the vehicle profile and the fuel calibration.
    /// Returns what could not be reloaded (empty when everything was): the control socket's
    /// answer says so, so a family's change that did not reach the service is never "ok".
    @discardableResult
    public func reloadProvisioning(at now: LinkMilliseconds, _ perform: ServiceActions) -> [String] {
        guard let records else { return ["the service runs without a store to reload from"] }
        var failures: [String] = []
        do {
            let directory = try records.directory()
            self.directory = directory
            ingest.update(directory: directory)
            sendBLEFilter(at: now, perform)
            logger.info("provisioning reloaded: \(directory.drivers.count) driver(s)")
        } catch {
            logger.error("cannot reload provisioning: \(error)")
            failures.append("provisioning: \(error)")
        }
        do {
            try apply(vehicle: try records.vehicle())
        } catch {
            logger.error("cannot reload the vehicle profile: \(error)")
            failures.append("vehicle profile: \(error)")
        }
        perform(.provisioningChanged)
        return failures
    }

    /// A vehicle profile from the store: the fuel model or only its calibration changes from now on.
    func apply(vehicle latest: VehicleFuelSettings) throws {
        if latest.modelDiffers(from: vehicle) {
            ingest.update(fuel: try latest.estimator())
            logger.info("vehicle profile reloaded: \(latest.ratedLitersPer100km) L/100 km rated, \(latest.massKilograms) kg")
        } else if latest.fuelScale != vehicle.fuelScale {
            ingest.update(calibrationFactor: latest.fuelScale)
        }
        if latest.fuelScale != vehicle.fuelScale {
            logger.info("fuel calibration reloaded: factor \(JSONLine.formatFixed(latest.fuelScale, decimals: 4)) (was \(JSONLine.formatFixed(vehicle.fuelScale, decimals: 4)))")
        }
        vehicle = latest
    }
}
