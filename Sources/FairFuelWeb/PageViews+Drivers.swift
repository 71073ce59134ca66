import FairFuelReports
import FairFuelStore

extension PageViews {
    /// The drivers with their tags and beacons; for the family: add one (then a tap at the car), a new
    /// fob or beacon for one, rename, remove.
    static func drivers(_ drivers: [DriverRecord], session: WebSession, enrolment: WebEnrolment.State?) -> String {
        var body = ""
        if let enrolment, enrolment.outcome == nil {
            body += H.message("The car is waiting for \(enrolment.driverName)'s \(enrolment.step.rawValue)", kind: "warn")
                + "<p><a href=\"/drivers/\(enrolment.driverID)/learn\">Follow it live</a></p>"
        }
        if session.isFamily {
            body += "<form class=\"card\" method=\"post\" action=\"/drivers/add\">\(H.csrfField(session))<h2>Add a driver</h2>"
                + "<label for=\"new-name\">Name</label><input id=\"new-name\" name=\"name\" maxlength=\"64\" required autocomplete=\"off\">"
                + "<p class=\"muted\">Then tap their fob on the dongle in the car: this page shows it arrive.</p>"
                + "<button type=\"submit\">Add and tap their fob</button></form>"
        }
        if drivers.isEmpty { body += "<p class=\"muted\">No driver yet.</p>" }
        for driver in drivers {
            let id = driver.id.rawValue
            body += "<section class=\"card\" data-driver-id=\"\(id)\"><h2>\(H.h(driver.name))</h2>"
            let bound = driver.tags.map { "tag \($0)" } + driver.beacons.map { "beacon \($0.spec)" }
            body += bound.isEmpty ? "<p class=\"muted\">No tag or beacon yet.</p>" : "<ul>" + bound.map { "<li>\(H.h($0))</li>" }.joined() + "</ul>"
            if session.isFamily {
                body += H.button("Tap a new fob", action: "/drivers/\(id)/learn", session: session, hidden: [("step", "tag")])
                    + H.button("Learn their beacon", action: "/drivers/\(id)/learn", session: session, hidden: [("step", "beacon")])
                    + "<form method=\"post\" action=\"/drivers/\(id)/rename\">\(H.csrfField(session))<label for=\"name-\(id)\">New name</label>"
                    + "<input id=\"name-\(id)\" name=\"name\" maxlength=\"64\" required value=\"\(H.h(driver.name))\"><button type=\"submit\">Rename</button></form>"
                    + H.button("Remove", action: "/drivers/\(id)/remove", session: session, danger: true)
            }
            body += "</section>"
        }
        return body
    }

    /// A learning followed live: "tap now" and the seconds left while the car waits, then what was bound
    /// (and the beacon next), or why not (and try again).
    static func learning(_ driver: DriverRecord, state: WebEnrolment.State?, session: WebSession) -> String {
        let id = driver.id.rawValue
        let name = H.h(driver.name)
        let learn = "/drivers/\(id)/learn"
        let again = { (step: WebEnrolment.Step, label: String) in H.button(label, action: learn, session: session, hidden: [("step", step.rawValue)]) }
        guard let state, state.driverID == id else {
            return "<section class=\"card\" id=\"learning\" data-state=\"none\"><p>The car is not waiting for \(name)'s fob.</p>"
                + again(.tag, "Tap a fob now") + again(.beacon, "Learn their beacon") + "</section>"
        }
        let step = state.step.rawValue
        var body = "<section class=\"card\" id=\"learning\" data-step=\"\(step)\" "
        switch state.outcome {
        case nil:
            let what = state.step == .tag
                ? "Tap \(name)'s fob on the dongle now"
                : "Hold \(name)'s fob next to the dongle for \(WebEnrolment.beaconHoldSeconds) s, other fobs away"
            body += "data-state=\"waiting\"><h2>\(what)</h2><p class=\"muted\">The car waits \(state.secondsLeft()) s more; this page shows the \(step) as it arrives.</p>"
        case let .done(text)?:
            body += "data-state=\"done\">" + H.message(text, kind: "ok")
            body += state.step == .tag
                ? "<p>Next, their beacon (a fob with BLE): the car then knows them without a tap.</p>" + again(.beacon, "Learn their beacon")
                    + " <a href=\"/drivers\">Done</a>"
                : "<p><a href=\"/drivers\">Done</a>: \(name) drives with it from the next trip.</p>"
        case let .failed(text)?:
            body += "data-state=\"failed\">" + H.message(text, kind: "err") + again(state.step, "Try again") + " <a href=\"/drivers\">Back</a>"
        }
        return body + "</section>"
    }
}

extension PageViews {
    /// Each chart drawn, and its numbers in a table below it (the text alternative).
    static func charts(_ charts: [LineChart]) -> String {
        charts.enumerated().map { index, chart in
            "<section class=\"card\" id=\"chart-\(index + 1)\"><h2>\(H.h(chart.title))</h2>"
                + (chart.isEmpty ? "<p class=\"muted\">Nothing to draw yet.</p>"
                    : chart.svg() + "<details><summary>The numbers</summary>" + chart.table() + "</details>")
                + "</section>"
        }.joined()
    }
}
