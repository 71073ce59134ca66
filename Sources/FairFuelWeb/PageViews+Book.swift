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
            <label for="liters">Litres</label><input id="liters" name="liters" type="number" inputmode="decimal" step="0.01" min="0.1" required value="\(value("liters"))">
            <label for="cost">Total cost (\(H.h(u.currency)))</label><input id="cost" name="cost" inputmode="decimal" required value="\(value("cost"))">
            <label><input type="checkbox" name="full" value="1"\(full ? " checked" : "")>Filled to the top</label>
            <label for="odometer_km">Odometer (km)</label><input id="odometer_km" name="odometer_km" type="number" inputmode="decimal" step="0.1" min="0" value="\(value("odometer_km"))">
            <label for="station">Station</label><input id="station" name="station" maxlength="200" value="\(value("station"))">
            <label for="note">Note</label><input id="note" name="note" maxlength="200" value="\(value("note"))">
            <label for="receipt">Receipt photo</label><input id="receipt" name="receipt" type="file" accept="image/jpeg,image/png" capture="environment">
            <button type="submit">Save the refuel</button></form>
            """
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
                body += split.refuel.settledUTCMs == nil
                    ? H.button("Settle", action: "/bills/\(split.id)/settle", session: session)
                    : H.button("Unsettle", action: "/bills/\(split.id)/unsettle", session: session, danger: true)
            }
            body += "</section>"
        }
        return body
    }

    static func drivers(_ drivers: [DriverRecord], session: WebSession) -> String {
        guard !drivers.isEmpty else {
            return "<p class=\"muted\">No driver yet: add one at the car with `fairfuel provision driver add`.</p>"
        }
        var body = ""
        for driver in drivers {
            let id = driver.id.rawValue
            body += "<section class=\"card\"><h2>\(H.h(driver.name))</h2><p class=\"muted\">\(driver.tags.count) tag(s), \(driver.beacons.count) beacon(s)</p>"
            if session.isFamily {
                body += "<form method=\"post\" action=\"/drivers/\(id)/rename\">\(H.csrfField(session))<label for=\"name-\(id)\">New name</label>"
                    + "<input id=\"name-\(id)\" name=\"name\" maxlength=\"64\" required value=\"\(H.h(driver.name))\"><button type=\"submit\">Rename</button></form>"
                    + H.button("Remove", action: "/drivers/\(id)/remove", session: session, danger: true)
            }
            body += "</section>"
        }
        return body
    }
}
