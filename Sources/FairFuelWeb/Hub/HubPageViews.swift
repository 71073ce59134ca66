import FairFuelCore
import FairFuelPull
import FairFuelReports
import FairFuelStore

/// The hub's family page: per person across cars, then per car, each with this month and all time;
/// the figures are `HubFamilyView`'s (those `fairfuel summary` prints over the same database).
enum HubPageViews {
    typealias H = HTMLPage

    /// The hub's navigation: its one page (the car's pages do not exist here).
    static let links = "<a href=\"/family\">Family</a>"

    /// `notice`: what the last correction became (sent, or refused and why), shown first.
    static func family(_ view: HubFamilyView, session: WebSession, notice: (text: String, kind: String)? = nil) -> String {
        let units = view.books.units
        var body = notice.map { H.message($0.text, kind: $0.kind) } ?? ""
        body += H.message(view.sendsCorrections ? HubFamilyView.correctionsNote : HubFamilyView.readOnlyNote, kind: view.sendsCorrections ? "ok" : "warn")
        for waiting in view.books.waiting { body += H.message(FamilyView.waitingNote(waiting), kind: "warn") }
        body += "<section class=\"card\" id=\"people\"><h2>\(H.h("Per person: \(view.month) and all time"))</h2>"
        body += people(month: view.summaries.people.month, allTime: view.summaries.people.allTime, units: units) + "</section>"
        for (index, (car, figures)) in zip(view.books.cars, view.summaries.cars).enumerated() {
            var carUnits = car.units
            carUnits.timeZone = units.timeZone  // one calendar for the family's page
            body += "<section class=\"card\" id=\"car-\(index)\"><h2>\(H.h(car.label))</h2>"
            body += people(month: figures.month, allTime: figures.allTime, units: carUnits)
            body += "<h3>Latest trips</h3>" + trips(HubFamilyView.latestTrips(car), units: carUnits)
            body += "<h3>Latest refuels</h3>" + refuels(HubFamilyView.latestRefuels(car), units: carUnits)
            if view.sendsCorrections, let vehicle = car.vehicleID {
                body += commands(view.commands[vehicle] ?? [], units: carUnits)
                body += session.isFamily ? correctionForms(vehicle: vehicle, session: session)
                    : "<p class=\"muted\">Only a family user sends corrections to the car.</p>"
            }
            body += "</section>"
        }
        if view.books.cars.isEmpty { body += H.message("The hub has received no car's records yet.", kind: "warn") }
        return body
    }

    /// One row per person: distance, fuel and cost in the month, then all time.
    static func people(month: FamilySummary, allTime: FamilySummary, units u: DisplayUnits) -> String {
        let byName = Dictionary(month.drivers.map { ($0.driverName.lowercased(), $0) }) { first, _ in first }
        func cells(_ d: DriverSummary?) -> [String] {
            // A person who did not drive in the month: zeros, written as the figures are.
            [H.h(DisplayUnits.fixed(u.distance(meters: d?.distanceMeters ?? 0), 1)), H.h(DisplayUnits.fixed(u.volume(liters: d?.fuelLiters ?? 0), 2)),
             H.h(u.moneyText(d?.cost ?? .zero))]
        }
        let rows = allTime.drivers.map { d in [H.h(d.driverName)] + cells(byName[d.driverName.lowercased()]) + cells(d) }
        return H.table(
            ["Person", "Month \(u.distanceUnit)", "Month \(u.volumeUnit)", "Month \(u.currency)",
             "Total \(u.distanceUnit)", "Total \(u.volumeUnit)", "Total \(u.currency)"],
            rows, numeric: [1, 2, 3, 4, 5, 6])
    }

    static func trips(_ trips: [TripRow], units u: DisplayUnits) -> String {
        guard !trips.isEmpty else { return "<p class=\"muted\">No trips yet.</p>" }
        return H.table(
            ["Trip", "Start (\(u.timeLabel))", "Driver", u.distanceUnit, u.volumeUnit],
            trips.map { t in
                [H.h(t.reference), H.h(t.startUTCMs.map { u.minuteText(utcMs: $0) } ?? "?"), H.h(t.untracked ? "(untracked)" : t.driverName),
                 H.h(DisplayUnits.fixed(u.distance(meters: t.distanceMeters), 1)), H.h(DisplayUnits.fixed(u.volume(liters: t.fuelLiters), 2))]
            }, numeric: [3, 4])
    }

    static func refuels(_ splits: [RefuelSplit], units u: DisplayUnits) -> String {
        guard !splits.isEmpty else { return "<p class=\"muted\">No refuels yet.</p>" }
        return H.table(
            ["Refuel", "When (\(u.timeLabel))", u.volumeUnit, "Cost", "Fill"],
            splits.map { s in
                [String(s.id), H.h(u.minuteText(utcMs: s.refuel.atUTCMs)), H.h(DisplayUnits.fixed(u.volume(liters: s.refuel.liters), 2)),
                 H.h(SplitText.units(u, currency: s.refuel.currency).moneyWithCurrency(s.refuel.cost)), s.refuel.fullTank ? "full" : "partial"]
            }, numeric: [2, 3])
    }
}
