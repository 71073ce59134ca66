import FairFuelCore
import FairFuelPull
import FairFuelReports
import FairFuelStore

/// A car's corrections on the hub's page: the commands sent and their state, and the forms that
/// send more (the car app's field names; `HubCommandWords` reads them as the CLI's words).
extension HubPageViews {
    static func commands(_ commands: [HubCommandEntry], units u: DisplayUnits) -> String {
        guard !commands.isEmpty else { return "<h3>Corrections sent</h3><p class=\"muted\">None yet.</p>" }
        return "<h3>Corrections sent</h3>" + H.table(
            ["Sent (\(u.timeLabel))", "Correction", "State", "Id"],
            commands.map { c in
                [H.h(u.minuteText(utcMs: c.sentUTCMs)), H.h(c.name),
                 "<span class=\"state-\(H.h(c.state))\">\(H.h(c.state == "pending" ? "pending (until the car answers)" : c.state))</span>"
                    + (c.reason.map { ": " + H.h($0) } ?? ""), H.h(c.id)]
            })
    }

    /// One small form per correction, each posting to `/family/cars/VEHICLE/commands`.
    static func correctionForms(vehicle: String, session: WebSession) -> String {
        func form(_ action: String, _ title: String, _ fields: String, confirm: Bool = true) -> String {
            "<details class=\"card\"><summary>\(H.h(title))</summary><form method=\"post\" action=\"/family/cars/\(H.h(vehicle))/commands\">"
                + H.csrfField(session) + "<input type=\"hidden\" name=\"action\" value=\"\(H.h(action))\">"
                // Each form its own command id: sent twice (a reload), the car answers already_applied instead of applying it again.
                + "<input type=\"hidden\" name=\"command_id\" value=\"web-\(WebApp.randomToken().prefix(24))\">" + fields
                + (confirm ? "<label><input type=\"checkbox\" name=\"confirm\" value=\"1\">Also when it moves a settled bill's split</label>" : "")
                + "<button type=\"submit\">Send to the car</button></form></details>"
        }
        func input(_ name: String, _ label: String, required: Bool = false, numeric: Bool = false, placeholder: String? = nil) -> String {
            "<label for=\"\(H.h(vehicle))-\(name)\">\(H.h(label))</label><input id=\"\(H.h(vehicle))-\(name)\" name=\"\(name)\""
                + (numeric ? " inputmode=\"decimal\"" : "") + (required ? " required" : "") + (placeholder.map { " placeholder=\"\(H.h($0))\"" } ?? "") + ">"
        }
        let refuelID = input("refuel", "Refuel (its number above)", required: true, numeric: true)
        return "<h3>Send a correction</h3>"
            + form("refuel add", "Add a refuel",
                   input("at", "When (UTC, empty: now)", placeholder: "2026-11-25T17:20Z") + input("liters", "Litres", required: true, numeric: true)
                   + input("cost", "Total cost", required: true, numeric: true)
                   + "<label><input type=\"checkbox\" name=\"full\" value=\"1\" checked>Filled to the top</label>"
                   + input("odometer_km", "Odometer (km)", numeric: true) + input("station", "Station") + input("note", "Note"), confirm: false)
            + form("refuel edit", "Correct a refuel",
                   refuelID + input("liters", "Litres (empty: as it is)", numeric: true) + input("cost", "Total cost (empty: as it is)", numeric: true)
                   + "<label for=\"\(H.h(vehicle))-full\">Fill</label><select id=\"\(H.h(vehicle))-full\" name=\"full\"><option value=\"\">as it is</option>"
                   + "<option value=\"1\">full</option><option value=\"0\">partial</option></select>"
                   + input("odometer_km", "Odometer (km; empty: as it is)", numeric: true))
            + form("refuel remove", "Remove a refuel", refuelID)
            + form("trip assign", "Give trips to a driver",
                   input("trip", "Trips (42, or u7 for untracked driving; commas between)", required: true) + input("driver", "Driver", required: true))
            + form("trip move", "Move a recorded trip to another driver",
                   input("trip", "Trip (42)", required: true, numeric: true) + input("driver", "Driver", required: true))
            + form("trip delete", "Delete a trip", input("trip", "Trip", required: true))
            + form("settle", "Settle bills", input("refuel", "Refuels (commas between)", required: true), confirm: false)
            + form("unsettle", "Unsettle bills", input("refuel", "Refuels (commas between)", required: true), confirm: false)
            + form("baseline mark", "Mark the tank's level as the start of the bills (the car was filled to the top)",
                   input("at", "When (UTC, empty: now)", placeholder: "2026-11-20T08:00Z"), confirm: false)
    }
}
