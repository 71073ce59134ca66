import FairFuelCore
import FairFuelReports
import FairFuelStore

/// The pages' bodies from the book's figures (escaped here; the frame is `HTMLPage.page`).
enum PageViews {
    typealias H = HTMLPage

    static func login(token: String, error: String?) -> String {
        (error.map { H.message($0, kind: "err") } ?? "") + """
            <form class="card" method="post" action="/login">
            <input type="hidden" name="csrf" value="\(H.h(token))">
            <label for="username">Name</label><input id="username" name="username" autocomplete="username" autocapitalize="none" required>
            <label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
            <button type="submit">Log in</button></form>
            """
    }

    /// This month (`month`: the request's, in the vehicle's time zone) per driver, every bill's totals per
    /// driver, the open bill and the trips waiting for a name.
    static func home(book: StoreBook, trips: [TripRow], now: CarNow, month: CalendarMonth, openBill: OpenBill) -> String {
        let u = book.units
        let summary = book.summary(month)
        var body = carNow(now, units: u)
        body += "<section class=\"card\" id=\"month\" data-month=\"\(month)\"><h2>\(H.h("This month: \(month)"))</h2>"
        if summary.drivers.isEmpty { body += "<p class=\"muted\">Nobody has driven this month yet.</p>" }
        body += H.table(
            ["Driver", u.distanceUnit, u.volumeUnit, u.currency],
            summary.drivers.map { d in
                [H.h(d.driverName), H.h(DisplayUnits.fixed(u.distance(meters: d.distanceMeters), 1)),
                 H.h(DisplayUnits.fixed(u.volume(liters: d.fuelLiters), 2)), H.h(u.moneyText(d.cost))]
            }, numeric: [1, 2, 3]) + "</section>"
        // Every bill's shares added up per driver: what `fairfuel split --by driver` prints.
        let totals = SplitTotals.byDriver(book.shares)
        body += "<section class=\"card\" id=\"totals\"><h2>Bills per driver (all time)</h2>"
        body += H.table(
            ["Driver", u.volumeUnit, "Cost", "Bills"],
            totals.map { t in
                [H.h(SplitText.name(t.driverName, beforeTracking: t.beforeTracking)), H.h(DisplayUnits.fixed(u.volume(liters: t.fuelLiters), 2)),
                 H.h(SplitText.units(u, currency: t.currency).moneyWithCurrency(t.cost)), String(t.refuels)]
            }, numeric: [1, 2, 3],
            rowAttributes: totals.map { t in
                "data-driver=\"\(H.h(t.beforeTracking ? "(before tracking)" : t.driverName ?? "(untracked)"))\" data-cost-cents=\"\(t.cost.value)\""
            }) + "</section>"
        body += Self.openBill(openBill, units: u)
        let waiting = trips.filter(\.untracked)
        body += "<section class=\"card\"><h2>Waiting for a name (\(waiting.count))</h2>"
        body += waiting.isEmpty ? "<p class=\"muted\">Every trip has its driver.</p>" : tripTable(waiting.suffix(20), units: u)
        return body + "</section>"
    }

    /// The car now: being driven and by whom, or parked, or not known; the fuel in the tank.
    static func carNow(_ now: CarNow, units u: DisplayUnits) -> String {
        let driving: String
        let state: String
        switch now.driving {
        case .parked:
            (driving, state) = ("Parked: nobody is driving", "parked")
        case let .driven(driver, kilometers):
            let distance = kilometers.map { ", " + u.distanceText(meters: $0 * 1_000) + " so far" } ?? ""
            (driving, state) = ("Being driven by " + (driver ?? "someone the car does not know yet") + distance, "driven")
        case .notKnown:
            // The reason (a socket's path) is for the API and logs; the family reads that nobody can say.
            (driving, state) = ("Whether it is being driven: not known (the car's service does not answer)", "unknown")
        }
        let tank = now.tankLiters.map { liters in
            "Tank: about \(u.volumeText(liters: liters, decimals: 1)) of \(u.volumeText(liters: now.tankCapacityLiters, decimals: 0))"
        } ?? "Tank: not known until the first full-tank refuel"
        return "<section class=\"card\" id=\"now\" data-driving=\"\(state)\" data-driver=\"\(H.h(now.driving.driverName ?? ""))\""
            + (now.tankLiters.map { " data-tank-liters=\"\(DisplayUnits.fixed($0, 3))\"" } ?? "") + "><h2>Now</h2>"
            + "<p>\(H.h(driving))</p><p>\(H.h(tank))</p></section>"
    }

    /// The fuel burnt since the last refuel, by driver, and its estimated cost: what the next bill will split.
    static func openBill(_ bill: OpenBill, units u: DisplayUnits) -> String {
        let title = bill.sinceUTCMs.map { "Open bill: since the refuel of \(u.minuteText(utcMs: $0))" } ?? "Open bill: no refuel yet"
        let priced = bill.estimatedPricePerLiter != nil
        let rows = bill.shares.map { share in
            [H.h(share.driver == nil ? "(untracked)" : share.driverName ?? "(removed driver)"), H.h(DisplayUnits.fixed(u.volume(liters: share.fuelLiters), 2))]
                + (priced ? [H.h(u.moneyText(share.cost))] : [])
        }
        let note = priced ? "<p class=\"muted\">Costs at the last bill's price; the next refuel's bill says what they are.</p>"
            : bill.shares.isEmpty ? "" : "<p class=\"muted\">The costs are known once the tank has been filled up to the top.</p>"
        return "<section class=\"card\" id=\"open-bill\"><h2>\(H.h(title))</h2>"
            + (bill.shares.isEmpty ? "<p class=\"muted\">Nobody has driven since.</p>" : H.table(
                ["Driver", u.volumeUnit] + (priced ? ["Estimated cost"] : []), rows,
                numeric: priced ? [1, 2] : [1],
                rowAttributes: bill.shares.map { "data-driver=\"\(H.h($0.driver == nil ? "(untracked)" : $0.driverName ?? ""))\" data-cost-cents=\"\($0.cost.value)\"" }))
            + note + "</section>"
    }

    /// `timeOnly`: under a day's heading, the start's time without its date.
    static func tripTable<S: Sequence<TripRow>>(_ trips: S, units u: DisplayUnits, timeOnly: Bool = false) -> String {
        H.table(
            ["Trip", "Start", "Driver", u.distanceUnit, u.volumeUnit],
            trips.map { t in
                let start = t.startUTCMs.map(u.minuteText(utcMs:)) ?? "?"
                return ["<a href=\"/trips/\(H.h(t.reference))\">\(H.h(t.reference))</a>",
                 H.h(timeOnly ? String(start.split(separator: " ").last ?? "") : start),
                 H.h(t.untracked ? "(untracked)" : t.driverName), H.h(DisplayUnits.fixed(u.distance(meters: t.distanceMeters), 1)),
                 H.h(DisplayUnits.fixed(u.volume(liters: t.fuelLiters), 2))]
            }, numeric: [3, 4])
    }

    /// Trips by day (newest first), with the filter form (a GET: it works without script).
    static func trips(_ trips: [TripRow], units u: DisplayUnits, drivers: [String], driver: String?, month: String?) -> String {
        var body = "<form class=\"card\" method=\"get\" action=\"/trips\"><label for=\"driver\">Driver</label><select id=\"driver\" name=\"driver\">"
        body += "<option value=\"\">Everyone</option>"
        for name in drivers + ["(untracked)"] {
            body += "<option\(name == driver ? " selected" : "")>\(H.h(name))</option>"
        }
        body += "</select><label for=\"month\">Month</label><input id=\"month\" name=\"month\" type=\"month\" value=\"\(H.h(month ?? ""))\">"
        body += "<button type=\"submit\">Show</button></form>"
        guard !trips.isEmpty else { return body + "<p class=\"muted\">No trips match.</p>" }
        var days: [(String, [TripRow])] = []
        for trip in trips.reversed() {
            let day = trip.startUTCMs.map { u.dateText(utcMs: $0) } ?? "?"
            if days.last?.0 == day { days[days.count - 1].1.append(trip) } else { days.append((day, [trip])) }
        }
        for (day, rows) in days {
            body += "<section class=\"card\"><h2>\(H.h(day))</h2>" + tripTable(rows, units: u, timeOnly: true) + "</section>"
        }
        return body
    }

    /// A trip's figures, track and speed, and what may be done with it.
    static func trip(_ t: TripRow, points: [TrackPoint], units u: DisplayUnits, drivers: [String], session: WebSession) -> String {
        let speed = { (mps: Double?) in mps.map { DisplayUnits.fixed(u.speed(metersPerSecond: $0), 0) + " " + u.speedUnit } ?? "-" }
        var rows: [[String]] = [
            ["Driver", t.untracked ? "(untracked)" : t.driverName],
            ["Start", t.startUTCMs.map(u.minuteText(utcMs:)) ?? "?"],
            ["Distance", u.distanceText(meters: t.distanceMeters)],
            ["Duration", "\(t.durationMs / 60_000) min"],
            ["Fuel", u.volumeText(liters: t.fuelLiters)],
        ]
        if t.hasMotionFigures {
            rows += [["Idle", "\(t.idleMs / 60_000) min"], ["Harsh accelerations / brakings", "\(t.harshAccelerations) / \(t.harshBrakings)"],
                     ["Average speed", speed(t.averageSpeedMetersPerSecond)], ["Top speed", speed(t.maximumSpeedMetersPerSecond)]]
        }
        if t.untracked && !t.candidates.isEmpty { rows.append(["Candidates", t.candidates.joined(separator: ", ")]) }
        var body = "<section class=\"card\">" + H.table(["", ""], rows.map { $0.map(H.h) }) + "</section>"
        if !t.untracked {
            body += "<section class=\"card\"><h2>Track</h2>"
                + TrackSVG.track(points, description: "The track of trip \(t.reference), \(u.distanceText(meters: t.distanceMeters))")
                + "<h2>Speed</h2>" + TrackSVG.speedProfile(points, units: u) + "</section>"
        }
        // Candidates first: the continuity rules' guess is usually right.
        let choices = t.candidates.filter(drivers.contains) + drivers.filter { !t.candidates.contains($0) }
        let options = choices.map { "<option>\(H.h($0))</option>" }.joined()
        let action = "/trips/\(H.h(t.reference))"
        if t.untracked {
            body += "<form class=\"card\" method=\"post\" action=\"\(action)/assign\">\(H.csrfField(session))<label for=\"driver\">Give to</label>"
                + "<select id=\"driver\" name=\"driver\">\(options)</select><button type=\"submit\">Give the trip</button></form>"
        } else if session.isFamily {
            body += "<form class=\"card\" method=\"post\" action=\"\(action)/assign\">\(H.csrfField(session))<label for=\"driver\">Move to</label>"
                + "<select id=\"driver\" name=\"driver\">\(options)</select><button type=\"submit\">Move the trip</button></form>"
                + "<div class=\"card\">" + H.button("Delete the trip", action: "\(action)/delete", session: session, danger: true)
                + "<p class=\"muted\">Its track goes; its fuel stays in the bills as untracked driving.</p></div>"
        }
        return body
    }

    /// A change that needs a yes: the message and the same form again with `confirm`.
    static func confirm(_ message: String, action: String, fields: [String: String], session: WebSession) -> String {
        var kept = fields
        kept["csrf"] = nil
        kept["confirm"] = "1"
        return H.message(message, kind: "warn")
            + "<div class=\"card\">" + H.button("Confirm", action: action, session: session, hidden: kept.sorted { $0.key < $1.key })
            + " <a href=\"/\">Cancel</a></div>"
    }

    /// What a change did, as the CLI prints it: each moved bill's shares before and after.
    static func change(_ headline: String, change: BookChange, units: DisplayUnits) -> String {
        H.message(headline, kind: "ok") + "<section class=\"card\"><h2>Bills before and after</h2><pre>"
            + H.h(change.bills.isEmpty ? "no bill moved\n" : BookChangeText.text(change, units: units)) + "</pre></section>"
    }
}
