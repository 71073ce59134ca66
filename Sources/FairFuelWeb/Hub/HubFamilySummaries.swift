import FairFuelCore
import FairFuelPull
import FairFuelReports

/// The family view's costly figures for one month: per person across cars and per car, this month
/// and all time, and `fairfuel family --json`. At a thousand cars they take seconds to make, so
/// they are made once per month and hub commit (`HubBooksCache`); what depends on the user and on
/// the commands sent (the forms, the pending list) is added per request.
struct HubFamilySummaries: Sendable {
    struct Pair: Sendable {
        let month: FamilySummary
        let allTime: FamilySummary
    }

    let month: CalendarMonth
    let people: Pair
    /// `fairfuel family --json` over the same books.
    let peopleJSON: String
    /// One per car, in the books' order.
    let cars: [Pair]

    init(books: FamilyBooks, month: CalendarMonth) {
        self.month = month
        people = Pair(month: books.summary(month), allTime: books.summary(nil))
        peopleJSON = FamilyView(books).json
        cars = books.cars.map { Pair(month: books.carSummary($0, month), allTime: books.carSummary($0, nil)) }
    }
}
