import ArgumentParser
import FairFuelCore
import FairFuelEdges
import FairFuelReports
import FairFuelStore

/// `fairfuel refuel add --baseline [--at TIME]`: the tank was full then, no bill.
extension RefuelCommand.Add {
    /// A mark has a moment and nothing else: a volume, a cost or a fill would be a refuel.
    func validateBaseline() throws {
        let others = [
            ("--liters", liters != nil), ("--gallons", gallons != nil), ("--cost", cost != nil), ("--partial", partial),
            ("--odometer-km", odometerKilometers != nil), ("--odometer-mi", odometerMiles != nil), ("--fuel", fuel != nil),
            ("--station", station != nil), ("--note", note != nil),
        ].filter(\.1).map(\.0)
        guard others.isEmpty else {
            throw ValidationError(
                "--baseline marks a full tank, with no litres or cost: it takes only --at, not \(others.joined(separator: ", ")); "
                    + "a fill-up with a bill is entered without --baseline")
        }
    }

    func addBaseline(_ db: TripStore) throws {
        let units: DisplayUnits
        do { units = DisplayUnits(vehicle: try db.vehicle()) } catch {
            throw UserFacingError(StoreFailure.message(error, path: db.path, doing: "read the vehicle"))
        }
        let timestamp: Int64
        if let at {
            timestamp = try RefuelEntryChecks.instant(at, units: units)
        } else {
            timestamp = WallClock.utcMilliseconds()
        }
        do {
            let (id, change) = try db.addBaselineMark(
                atUTCMs: timestamp, enteredUTCMs: WallClock.utcMilliseconds(), force: force,
                entryClockUTCMs: at == nil ? timestamp : try RefuelEntryChecks.nowUTCMs())
            print("refuel \(id): baseline mark, the tank was full at \(TripText.utc(timestamp)!); the next bill is an ordinary one")
            let others = BookChange(bills: change.bills.filter { $0.refuelID != id })
            if !others.bills.isEmpty { print("bills re-split:\n" + BookChangeText.text(others, units: units), terminator: "") }
        } catch {
            throw UserFacingError(StoreFailure.message(error, path: db.path, doing: "record the baseline mark", units: units))
        }
        // Calibration now measures from the mark: the running service takes it now.
        store.control.tellService()
    }
}
