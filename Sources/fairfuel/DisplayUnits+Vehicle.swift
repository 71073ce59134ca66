import FairFuelCore
import FairFuelEdges
import FairFuelReports
import FairFuelStore

extension DisplayUnits {
    /// How the family reads this vehicle's figures, times on its time zone's wall clock. A zone
    /// that no longer loads (tzdata removed since it was set) shows UTC, and says so once.
    init(vehicle: VehicleProfile) {
        self.init(units: vehicle.units, currency: vehicle.currency, currencyMinorDigits: vehicle.currencyMinorDigits)
        guard vehicle.timeZone != TimeZoneRules.utc.name else { return }
        do {
            timeZone = try TimeZoneDatabase.load(vehicle.timeZone)
        } catch {
            StandardErrorLog.write(Array("warning: \(error); times are shown in UTC\n".utf8))
        }
    }
}
