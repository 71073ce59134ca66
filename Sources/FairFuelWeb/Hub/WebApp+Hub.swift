import FairFuelCore
import FairFuelDomain
import FairFuelPull
import FairFuelStore
import Hummingbird

/// The hub's routes (`fairfuel web --hub-db FILE`): the family view of every car, and with
/// `--mqtt-url` and `--secrets` the corrections a family user sends to a car; the login, logout
/// and session routes are the car's app's own.
extension WebApp {
    struct HubCommandBody: Decodable {
        var action: String
        var at: String?
        var liters: Double?
        var cost: String?
        /// The cost's currency, needed only when the hub holds no bill of the car; it must be the car's.
        var currency: String?
        var full: Bool?
        var odometer_km: Double?
        var station: String?
        var note: String?
        var refuel: String?
        var trip: String?
        var driver: String?
        var confirm: Bool?
        /// The command's id (default: a new one); the same id again is answered already_applied by the car.
        var command_id: String?

        /// The fields as the page's form would carry them (`HubCommandWords` reads both).
        var fields: [String: String] {
            var fields: [String: String] = [:]
            fields["at"] = at
            fields["liters"] = liters.map { "\($0)" }
            fields["cost"] = cost
            fields["currency"] = currency
            // A refuel added is a full tank unless `full` is false; an edit changes the fill only when `full` is given.
            fields["full"] = action == "refuel add" ? (full == false ? nil : "1") : full.map { $0 ? "1" : "0" }
            fields["odometer_km"] = odometer_km.map { "\($0)" }
            fields["station"] = station
            fields["note"] = note
            fields["refuel"] = refuel
            fields["trip"] = trip
            fields["driver"] = driver
            fields["confirm"] = confirm == true ? "1" : nil
            return fields
        }
    }

    static let onlyOnTheHub = "the family view of every car is served by the hub's app (fairfuel web --hub-db FILE)"

    /// The form fields a correction may carry.
    static let hubCommandFields = ["at", "liters", "cost", "currency", "full", "odometer_km", "station", "note", "refuel", "trip", "driver", "confirm"]

    func addHubRoutes(to router: Router<WebContext>) {
        // On a car the API's family route says where it is served (a JSON 404, as the document declares).
        router.group("/api/v1").get("/family", use: api { request, _, _ throws(WebError) in
            guard let hub else { throw .notFound(Self.onlyOnTheHub) }
            return Self.json(try hub.view(month: request.uri.queryParameters["month"].map(String.init), nowUTCMs: configuration.nowUTCMs()).json)
        })
        // On a car the corrections' routes, too, say where they are served.
        let api = router.group("/api/v1")
        api.get("/family/cars/{vehicle}/commands", use: self.api { _, context, _ throws(WebError) in
            guard let hub else { throw .notFound(Self.onlyOnTheHub) }
            let vehicle = context.parameters.get("vehicle") ?? ""
            _ = try hub.car(vehicle)
            var j = JSONLine()
            j.add("vehicle_id", vehicle)
            j.add("read_only", hub.corrections == nil)
            j.addRaw("commands", json: HubFamilyView.commandsJSON(try hub.commands(vehicle)))
            return Self.json(j.string)
        })
        api.post("/family/cars/{vehicle}/commands", use: self.api(change: true) { request, context, session throws(WebError) in
            guard let hub else { throw .notFound(Self.onlyOnTheHub) }
            let vehicle = context.parameters.get("vehicle") ?? ""
            try requireFamily(session, to: "send a correction to a car")
            let body = try await decode(HubCommandBody.self, request, context: context)
            let command = try await sendCorrection(hub, vehicle: vehicle, action: body.action, fields: body.fields, id: body.command_id, session: session)
            var j = JSONLine()
            j.add("id", command.id)
            j.add("vehicle_id", vehicle)
            j.add("command", command.operation.name)
            j.add("state", "pending")
            return Self.json(j.string, status: .accepted)
        })
        guard let hub else { return }
        router.get("/", use: page { _, _, _ throws(WebError) in HTMLPage.redirect("/family") })
        router.get("/family", use: page { request, _, session throws(WebError) in
            let view = try hub.view(month: request.uri.queryParameters["month"].map(String.init), nowUTCMs: configuration.nowUTCMs())
            let page = HTMLPage.page("Family", session: session, body: HubPageViews.family(view, session: session), links: HubPageViews.links)
            return HTMLPage.response(page)
        })
        router.post("/family/cars/{vehicle}/commands", use: page { request, context, session throws(WebError) in
            let form = try await form(request, session: session)
            let vehicle = context.parameters.get("vehicle") ?? ""
            let notice: (text: String, kind: String)
            var status = HTTPResponse.Status.ok
            do throws(WebError) {
                var fields: [String: String] = [:]
                for name in Self.hubCommandFields { fields[name] = form[name] }
                let command = try await sendCorrection(
                    hub, vehicle: vehicle, action: form["action"] ?? "", fields: fields, id: form["command_id"], session: session)
                notice = ("\(command.operation.name) sent to car \(vehicle) as command \(command.id): pending until the car answers", "ok")
            } catch {
                notice = (error.description, "err")
                status = error.status
            }
            let view = try hub.view(month: nil, nowUTCMs: configuration.nowUTCMs())
            let body = HubPageViews.family(view, session: session, notice: notice)
            return HTMLPage.response(HTMLPage.page("Family", session: session, body: body, links: HubPageViews.links), status: status)
        })
    }

    /// A family user's correction to `vehicle`: refused for a driver, on a read-only hub, for a car
    /// the hub does not know, and for a form the CLI's parser refuses (nothing published then).
    func sendCorrection(
        _ hub: HubFamily, vehicle: String, action: String, fields: [String: String], id: String?, session: WebSession
    ) async throws(WebError) -> FleetCommand {
        try requireFamily(session, to: "send a correction to a car")
        guard let corrections = hub.corrections else {
            throw .refused("this hub's app is read-only: it sends corrections when started with --mqtt-url and --secrets")
        }
        _ = try hub.car(vehicle)
        var fields = fields
        // A refuel entered without a time is one entered now, as on the car's own page.
        if action == "refuel add", fields["at"] == nil {
            fields["at"] = UTCTimestamp(millisecondsSinceEpoch: configuration.nowUTCMs()).iso8601
        }
        return try await corrections.send(vehicle: vehicle, action: action, fields: fields, id: id, database: hub.path, open: hub.open)
    }
}
