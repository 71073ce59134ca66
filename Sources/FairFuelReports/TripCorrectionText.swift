import FairFuelCore
import FairFuelStore

/// Trips given to a driver as JSON: `fairfuel trips assign --json` and the web app's API alike.
public enum TripCorrectionText {
    public static func json(_ trips: [TripCorrection]) -> String {
        JSONLine.array(trips.map { trip in
            var t = JSONLine()
            t.add("trip", trip.trip.description)
            t.add("session", trip.session)
            t.add("driver", trip.driverName)
            t.add("previous_driver", trip.previousDriverName)
            return t.string
        })
    }
}
