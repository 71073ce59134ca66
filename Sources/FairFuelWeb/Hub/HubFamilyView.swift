import FairFuelCore
import FairFuelPull
import FairFuelReports
import FairFuelStore

/// The family view's figures for one month and all time: per person across cars, and per car,
/// each from the renderers `fairfuel family` and `fairfuel summary` print over the same books.
struct HubFamilyView {
    /// How many of each car's latest trips and refuels are shown.
    static let latestCount = 10
    static let readOnlyNote = "This is the hub's view of every car: it is read-only. Corrections (a trip's driver, a refuel, a bill) "
        + "are made on the car's own app, and arrive here when the car next sends its records. (The hub sends them to the cars itself "
        + "when its app is started with --mqtt-url and --secrets.)"
    static let correctionsNote = "Corrections sent from here go to the car as signed commands: each is pending until the car answers, "
        + "and its figures change here when the car sends its corrected records."

    let books: FamilyBooks
    /// The month's figures, made once per month and hub commit.
    let summaries: HubFamilySummaries
    var month: CalendarMonth { summaries.month }
    /// The app sends corrections to the cars (`--mqtt-url`, `--secrets`).
    var sendsCorrections = false
    /// Each car's commands by vehicle id, newest first.
    var commands: [String: [HubCommandEntry]] = [:]

    /// The car's latest closed trips, newest first.
    static func latestTrips(_ car: FamilyBooks.Car) -> [TripRow] { Array(car.trips.suffix(latestCount).reversed()) }

    /// The car's latest refuels, newest first.
    static func latestRefuels(_ car: FamilyBooks.Car) -> [RefuelSplit] { Array(car.splits.suffix(latestCount).reversed()) }

    /// `/api/v1/family`: `people` is `fairfuel family --json`, `month` and `all_time` are `fairfuel summary --json`
    /// (with and without `--month`), each car's the same for that car alone.
    var json: String {
        var j = JSONLine()
        j.add("read_only", !sendsCorrections)
        j.add("note", sendsCorrections ? Self.correctionsNote : Self.readOnlyNote)
        // The cars the hub asked for what it missed and still waits for: their figures may be incomplete.
        j.addRaw("incomplete", json: FamilyView.waitingJSON(books.waiting))
        j.addRaw("people", json: summaries.peopleJSON)
        j.addRaw("month", json: SummaryText.json(summaries.people.month, cars: books.cars.map(\.label)))
        j.addRaw("all_time", json: SummaryText.json(summaries.people.allTime, cars: books.cars.map(\.label)))
        j.addRaw("cars", json: JSONLine.array(zip(books.cars, summaries.cars).map { car, figures in
            var c = JSONLine()
            c.add("car", car.label)
            c.add("vehicle_id", car.vehicleID)
            c.addRaw("commands", json: Self.commandsJSON(car.vehicleID.flatMap { commands[$0] } ?? []))
            c.addRaw("month", json: SummaryText.json(figures.month))
            c.addRaw("all_time", json: SummaryText.json(figures.allTime))
            c.addRaw("latest_trips", json: TripText.jsonArray(Self.latestTrips(car)))
            c.addRaw("latest_refuels", json: RefuelText.jsonArray(
                Self.latestRefuels(car).map { (id: $0.id, refuel: $0.refuel) }, vehicleCurrency: car.units.currency))
            return c.string
        }))
        return j.string
    }

    /// Commands as `/api/v1` gives them (`fairfuel hub status --json`'s fields).
    static func commandsJSON(_ commands: [HubCommandEntry]) -> String { JSONLine.array(commands.map { $0.json(withVehicle: false) }) }
}
