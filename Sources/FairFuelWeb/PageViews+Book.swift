import FairFuelCore
import FairFuelReports
import FairFuelStore

extension PageViews {
    /// The pump's form: multipart, for the receipt photo from the phone's camera.
    static func refuelForm(units u: DisplayUnits, session: WebSession, values: [String: String] = [:], error: String? = nil) -> String {
        func value(_ name: String) -> String { H.h(values[name] ?? "") }
        let full = values.isEmpty || values["full"] != nil
        return (error.map { H.message($0, kind: "err") } ?? "") + """
            <form class="card" method="post" action="/refuels" enctype="multipart/form-data">\(H.csrfField(session))
            \(volumeField(units: u, values: values))
            <label for="cost">Total cost (\(H.h(u.currency)))</label><input id="cost" name="cost" inputmode="decimal" required value="\(value("cost"))">
            <label><input type="checkbox" name="full" value="1"\(full ? " checked" : "")>Filled to the top</label>
            <label for="odometer_km">Odometer (km)</label><input id="odometer_km" name="odometer_km" type="number" inputmode="decimal" step="0.1" min="0" value="\(value("odometer_km"))">
            <label for="station">Station</label><input id="station" name="station" maxlength="200" value="\(value("station"))">
            <label for="note">Note</label><input id="note" name="note" maxlength="200" value="\(value("note"))">
            <label for="receipt">Receipt photo</label><input id="receipt" name="receipt" type="file" accept="image/jpeg,image/png" capture="environment">
            <button type="submit">Save the refuel</button></form>
            """
    }

    /// The volume in the car's unit: `liters`, or `gallons` (US, or imperial for a `uk` car).
    static func volumeField(units u: DisplayUnits, values: [String: String]) -> String {
        let name = u.litersPerGallon == nil ? "liters" : "gallons"
        let label = u.litersPerGallon == nil ? "Litres" : "Gallons (\(u.volumeUnit))"
        return "<label for=\"\(name)\">\(H.h(label))</label><input id=\"\(name)\" name=\"\(name)\" type=\"number\" inputmode=\"decimal\" "
            + "step=\"0.01\" min=\"0.01\" required value=\"\(H.h(values[name] ?? ""))\">"
    }

    /// `fairfuel refuel edit` and `remove` on a page: the volume, cost, full or partial and odometer as
    /// they are, to correct; the removal asks for nothing more than the button (the store's warnings follow).
    static func refuelEdit(id: Int64, _ bill: RefuelInput, units u: DisplayUnits, session: WebSession, values: [String: String]? = nil, error: String? = nil) -> String {
        let volumeName = u.litersPerGallon == nil ? "liters" : "gallons"
        let shown = values ?? [
            "at": u.minuteText(utcMs: bill.atUTCMs).replacing(" ", with: "T"),
            volumeName: DisplayUnits.fixed(u.volume(liters: bill.liters), 2), "cost": u.moneyText(bill.cost),
            "odometer_km": bill.odometerKilometers.map { DisplayUnits.fixed($0, 1) } ?? "",
        ]
        let full = values.map { $0["full"] != nil } ?? bill.fullTank
        return (error.map { H.message($0, kind: "err") } ?? "")
            + "<p class=\"muted\">Refuel \(id) of \(H.h(u.minuteText(utcMs: bill.atUTCMs)))\(bill.station.map { " at " + H.h($0) } ?? "")</p>"
            + "<form class=\"card\" method=\"post\" action=\"/refuels/\(id)/edit\">\(H.csrfField(session))"
            + "<label for=\"at\">When (\(H.h(u.timeZoneText)))</label><input id=\"at\" name=\"at\" type=\"datetime-local\" required "
            + "value=\"\(H.h(shown["at"] ?? ""))\">" + volumeField(units: u, values: shown)
            + "<label for=\"cost\">Total cost (\(H.h(u.currency)))</label><input id=\"cost\" name=\"cost\" inputmode=\"decimal\" required value=\"\(H.h(shown["cost"] ?? ""))\">"
            + "<label><input type=\"checkbox\" name=\"full\" value=\"1\"\(full ? " checked" : "")>Filled to the top</label>"
            + "<label for=\"odometer_km\">Odometer (km; empty: none)</label><input id=\"odometer_km\" name=\"odometer_km\" type=\"number\" "
            + "inputmode=\"decimal\" step=\"0.1\" min=\"0\" value=\"\(H.h(shown["odometer_km"] ?? ""))\">"
            + "<button type=\"submit\">Save the correction</button></form>"
            + "<div class=\"card\">" + H.button("Remove the refuel", action: "/refuels/\(id)/remove", session: session, danger: true)
            + "<p class=\"muted\">Every bill is split again without it.</p></div>"
    }

    /// Every bill's split, newest first, with settle and unsettle for the family.
    /// `receipts`: the refuels with a receipt photo (linked).
    static func bills(_ splits: [RefuelSplit], units u: DisplayUnits, session: WebSession, receipts: Set<Int64> = []) -> String {
        var body = "<p><a href=\"/bills.csv\">Download CSV</a> · <a href=\"/report.html\">HTML report</a></p>"
        let totals = SplitTotals.byMonth(BillShare.all(splits), in: u.timeZone)
        if !totals.isEmpty {
            body += "<section class=\"card\"><h2>Per month</h2>" + H.table(
                ["Month", "Driver", "Cost"],
                totals.reversed().flatMap { month, shares in
                    shares.map { [H.h(month.description), H.h(SplitText.name($0.driverName, beforeTracking: $0.beforeTracking)),
                                  H.h(SplitText.units(u, currency: $0.currency).moneyWithCurrency($0.cost))] }
                }, numeric: [2]) + "</section>"
        }
        if splits.isEmpty { body += "<p class=\"muted\">No refuel yet: the first full fill-up is the baseline.</p>" }
        for split in splits.reversed() {
            let own = SplitText.units(u, currency: split.refuel.currency)
            let settled = split.refuel.settledUTCMs.map { "settled \(u.dateText(utcMs: $0))" } ?? "open"
            body += "<section class=\"card\" id=\"bill-\(split.id)\"><h2>Bill \(split.id): \(H.h(u.minuteText(utcMs: split.refuel.atUTCMs)))</h2>"
            body += "<p>\(H.h(u.volumeText(liters: split.refuel.liters))) for \(H.h(own.moneyWithCurrency(split.refuel.cost))), "
                + "\(split.refuel.fullTank ? "full" : "partial"), <strong>\(H.h(settled))</strong>"
                + (receipts.contains(split.id) ? " · <a href=\"/refuels/\(split.id)/receipt\">receipt</a>" : "") + "</p>"
            body += H.table(
                ["Driver", u.volumeUnit, "Share"],
                split.shares.map { [H.h(SplitText.name($0.driverName, beforeTracking: $0.beforeTracking)),
                                    H.h(DisplayUnits.fixed(u.volume(liters: $0.fuelLiters), 2)), H.h(own.moneyText($0.cost))] },
                numeric: [1, 2])
            if session.isFamily {
                body += "<a href=\"/refuels/\(split.id)/edit\">Correct or remove</a> "
                body += split.refuel.settledUTCMs == nil
                    ? H.button("Settle", action: "/bills/\(split.id)/settle", session: session)
                    : H.button("Unsettle", action: "/bills/\(split.id)/unsettle", session: session, danger: true)
            }
            body += "</section>"
        }
        return body
    }
}
