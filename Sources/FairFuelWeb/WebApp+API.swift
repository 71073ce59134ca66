import FairFuelCore
import FairFuelReports
import FairFuelStore
import Hummingbird
import HummingbirdAuth

/// `/api/v1`: every page's data and action as JSON (docs/openapi.json describes it), through the same
/// handlers' operations as the pages. Without a session every route but login and the document is 401;
/// a change must carry the session's token in `X-CSRF-Token`, and a JSON body where the route takes one.
extension WebApp {
    typealias APIHandler = @Sendable (Request, WebContext, WebSession) async throws(WebError) -> Response

    struct LoginBody: Decodable { var username: String; var password: String }
    struct AssignBody: Decodable { var driver: String; var confirm: Bool? }
    struct ConfirmBody: Decodable { var confirm: Bool? }
    struct RenameBody: Decodable { var name: String }
    struct LearnBody: Decodable { var step: String }
    struct RefuelEditBody: Decodable {
        /// ISO 8601; without an offset, the car's local time.
        var at: String?
        var liters: Double?
        var cost: String?
        var full: Bool?
        var odometer_km: Double?
        var confirm: Bool?
    }
    struct RefuelBody: Decodable {
        var liters: Double
        var cost: String
        var full: Bool?
        var odometer_km: Double?
        var station: String?
        var note: String?
        var confirm: Bool?
    }

    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func errorJSON(_ error: WebError) -> Response {
        var j = JSONLine()
        j.add("error", error.code)
        j.add("message", error.description)
        var response = json(j.string, status: error.status)
        if case let .tooManyRequests(_, seconds) = error { response.headers[.retryAfter] = String(seconds) }
        return response
    }

    /// An API route that needs a session; `change`: it must carry the CSRF header.
    func api(change: Bool = false, _ handler: @escaping APIHandler) -> @Sendable (Request, WebContext) async throws -> Response {
        { request, context in
            do {
                let session = try await requireSession(context)
                if change {
                    try requireSameOrigin(request)
                    guard let token = request.headers[.init("X-CSRF-Token")!], constantTimeEqual(token, session.csrfToken) else {
                        throw WebError.forbidden("a change needs the session's token in the X-CSRF-Token header")
                    }
                }
                return try await handler(request, context, session)
            } catch let error as WebError {
                return Self.errorJSON(error)
            }
        }
    }

    /// The JSON body as `T`, within 64 KiB; anything else is 400 (or 413, 415).
    func decode<T: Decodable>(_ type: T.Type, _ request: Request, context: WebContext) async throws(WebError) -> T {
        guard (request.headers[.contentType] ?? "").lowercased().hasPrefix("application/json") else {
            throw .badRequest("send the body as application/json")
        }
        let bytes = try await body(request, limit: 64 << 10)
        var copy = request
        copy.body = .init(buffer: ByteBuffer(bytes: bytes))
        do { return try await copy.decode(as: T.self, context: context) } catch {
            throw .badRequest("the body is not the JSON this route takes: see /api/v1/openapi.json")
        }
    }

    func sessionJSON(_ session: WebSession) -> String {
        var j = JSONLine()
        j.add("user", session.name)
        j.add("role", session.role)
        j.add("csrf_token", session.csrfToken)
        return j.string
    }

    func addAPI(to router: Router<WebContext>) {
        let api = router.group("/api/v1")
        api.get("/openapi.json") { _, _ in Self.json(OpenAPIDocument.text) }
        api.post("/login") { request, context in
            do {
                let login = try await decode(LoginBody.self, request, context: context)
                return Self.json(sessionJSON(try await logIn(name: login.username, password: login.password, context: context)))
            } catch let error as WebError {
                return Self.errorJSON(error)
            }
        }
        api.post("/logout", use: self.api(change: true) { _, context, _ throws(WebError) in
            context.sessions.clearSession()
            return Self.json("{\"logged_out\":true}")
        })
        api.get("/session", use: self.api { _, _, session throws(WebError) in Self.json(sessionJSON(session)) })
        guard hub == nil else { return }  // the hub serves its own API (WebApp+Hub)
        api.get("/home", use: self.api { _, _, _ throws(WebError) in Self.json(try await homeJSON()) })
        api.get("/trips", use: self.api { request, _, _ throws(WebError) in
            let units = try await book.units()
            let driver = request.uri.queryParameters["driver"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
            let month = request.uri.queryParameters["month"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
            return Self.json(TripText.jsonArray(try await filteredTrips(driver: driver, month: month, units: units)))
        })
        api.get("/trips/{id}", use: self.api { _, context, _ throws(WebError) in
            let (row, points) = try await book.trip(try tripReference(context))
            var j = JSONLine()
            j.addRaw("trip", json: TripText.json(row))
            j.addRaw("track", json: JSONLine.array(TrackSVG.thinned(points).map { point in
                var p = JSONLine()
                p.add("at_utc", TripText.utc(point.utcMs))
                p.add("lat", point.latitude, decimals: 6)
                p.add("lon", point.longitude, decimals: 6)
                p.add("speed_kmh", point.speedMetersPerSecond * 3.6, decimals: 1)
                return p.string
            }))
            return Self.json(j.string)
        })
        api.post("/trips/{id}/assign", use: self.api(change: true) { request, context, session throws(WebError) in
            let reference = try tripReference(context)
            let body = try await decode(AssignBody.self, request, context: context)
            let (change, trips) = try await assign(reference, to: body.driver, force: body.confirm ?? false, session: session)
            var j = JSONLine()
            j.addRaw("trips", json: TripCorrectionText.json(trips))
            j.addRaw("bills", json: BookChangeText.json(change))
            return Self.json(j.string)
        })
        api.post("/trips/{id}/delete", use: self.api(change: true) { request, context, session throws(WebError) in
            let reference = try tripReference(context)
            let body = try await decode(ConfirmBody.self, request, context: context)
            try requireFamily(session, to: "delete a trip")
            let (change, trip) = try await book.delete(reference, force: body.confirm ?? false)
            var j = JSONLine()
            j.add("deleted", reference.description)
            j.add("driver", trip.previousDriverName)
            j.addRaw("untracked", json: JSONLine.array(trip.untracked.map { "\"u\($0)\"" }))
            j.addRaw("bills", json: BookChangeText.json(change))
            return Self.json(j.string)
        })
        api.get("/refuels", use: self.api { _, _, _ throws(WebError) in
            let units = try await book.units()
            return Self.json(RefuelText.jsonArray(try await book.refuels(), vehicleCurrency: units.currency))
        })
        api.post("/refuels", use: self.api(change: true) { request, context, _ throws(WebError) in
            let body = try await decode(RefuelBody.self, request, context: context)
            let units = try await book.units()
            let input = try RefuelEntry.input(
                liters: String(body.liters), cost: body.cost, full: body.full ?? true, odometerKilometers: body.odometer_km.map { String($0) },
                station: body.station, note: body.note, units: units, nowUTCMs: configuration.nowUTCMs())
            let (id, change) = try await book.addRefuel(input, confirmed: body.confirm ?? false)
            var j = JSONLine()
            j.add("id", id)
            j.addRaw("bills", json: BookChangeText.json(change))
            return Self.json(j.string, status: .created)
        })
        api.post("/refuels/{id}/edit", use: self.api(change: true) { request, context, session throws(WebError) in
            let body = try await decode(RefuelEditBody.self, request, context: context)
            try requireFamily(session, to: "correct a refuel")
            let id = try refuelID(context)
            let units = try await book.units()
            var edit = RefuelEdit()
            if let at = body.at { edit.atUTCMs = try RefuelEntry.instant(at, units: units) }
            if let liters = body.liters { edit.liters = try RefuelEntry.liters(liters: String(liters), gallons: nil, units: units) }
            if let cost = body.cost { edit.cost = try RefuelEntry.money(cost, units: units) }
            edit.fullTank = body.full
            if let km = body.odometer_km { edit.odometerKilometers = .some(try RefuelEntry.odometer(String(km))) }
            let change = try await book.editRefuel(id: id, edit, confirmed: body.confirm ?? false)
            return Self.json("{\"id\":\(id),\"bills\":\(BookChangeText.json(change))}")
        })
        api.post("/refuels/{id}/remove", use: self.api(change: true) { request, context, session throws(WebError) in
            let body = try await decode(ConfirmBody.self, request, context: context)
            try requireFamily(session, to: "remove a refuel")
            let id = try refuelID(context)
            let change = try await book.removeRefuel(id: id, confirmed: body.confirm ?? false)
            return Self.json("{\"id\":\(id),\"bills\":\(BookChangeText.json(change))}")
        })
        api.get("/bills", use: self.api { _, _, _ throws(WebError) in
            let units = try await book.units()
            return Self.json(SplitText.render(try await book.splits(), by: .refuel, json: true, units: units))
        })
        api.post("/bills/{id}/settle", use: self.api(change: true) { _, context, session throws(WebError) in
            try requireFamily(session, to: "settle a bill")
            let id = try refuelID(context)
            let settled = try await book.settle(id)
            return Self.json("{\"id\":\(id),\"settled\":\(settled)}")
        })
        api.post("/bills/{id}/unsettle", use: self.api(change: true) { _, context, session throws(WebError) in
            try requireFamily(session, to: "unsettle a bill")
            let id = try refuelID(context)
            let (change, unsettled) = try await book.unsettle(id)
            return Self.json("{\"id\":\(id),\"unsettled\":\(unsettled),\"bills\":\(BookChangeText.json(change))}")
        })
        api.get("/drivers", use: self.api { _, _, _ throws(WebError) in
            Self.json(JSONLine.array(try await book.drivers().map(driverJSON)))
        })
        api.post("/drivers", use: self.api(change: true) { request, context, session throws(WebError) in
            let body = try await decode(RenameBody.self, request, context: context)
            try requireFamily(session, to: "add a driver")
            return Self.json(driverJSON(try await book.addDriver(named: body.name)), status: .created)
        })
        api.get("/drivers/learning", use: self.api { _, _, _ throws(WebError) in Self.json(learningJSON(enrolment.current)) })
        api.post("/drivers/{id}/learn", use: self.api(change: true) { request, context, session throws(WebError) in
            let body = try await decode(LearnBody.self, request, context: context)
            try requireFamily(session, to: "give a driver a fob")
            guard let step = WebEnrolment.Step(rawValue: body.step) else { throw .badRequest("step must be tag or beacon") }
            let driver = try await book.driver(id: try driverID(context))
            try await enrolment.start(driverID: driver.id.rawValue, driverName: driver.name, step: step, askService: configuration.askService)
            return Self.json(learningJSON(enrolment.current), status: .accepted)
        })
        api.post("/drivers/{id}/rename", use: self.api(change: true) { request, context, session throws(WebError) in
            let body = try await decode(RenameBody.self, request, context: context)
            try requireFamily(session, to: "rename a driver")
            return Self.json(driverJSON(try await book.renameDriver(id: try driverID(context), to: body.name)))
        })
        api.post("/drivers/{id}/remove", use: self.api(change: true) { _, context, session throws(WebError) in
            try requireFamily(session, to: "remove a driver")
            return Self.json(driverJSON(try await book.removeDriver(id: try driverID(context))))
        })
    }

    /// The learning the car waits for, or the last one's outcome: `{"state":"none"}` when there was none.
    func learningJSON(_ state: WebEnrolment.State?) -> String {
        var j = JSONLine()
        guard let state else {
            j.add("state", "none")
            return j.string
        }
        let outcome: (String, String?) = switch state.outcome {
        case nil: ("waiting", nil)
        case let .done(text)?: ("done", text)
        case let .failed(text)?: ("failed", text)
        }
        j.add("state", outcome.0)
        j.add("driver_id", state.driverID)
        j.add("driver", state.driverName)
        j.add("step", state.step.rawValue)
        j.add("seconds_left", state.secondsLeft())
        j.add("message", outcome.1)
        return j.string
    }

    func driverJSON(_ driver: DriverRecord) -> String {
        var j = JSONLine()
        j.add("id", driver.id.rawValue)
        j.add("name", driver.name)
        j.add("tags", driver.tags.count)
        j.add("beacons", driver.beacons.count)
        return j.string
    }

    /// The home page's figures: this month per driver, the bills' totals per driver, the open bill, untracked trips.
    func homeJSON() async throws(WebError) -> String {
        let (book, trips) = try await self.book.snapshot()
        let month = currentMonth(book.units)
        let openBill = try await self.book.openBill()
        var j = JSONLine()
        j.add("vehicle", book.vehicle.name)
        j.add("currency", book.units.currency)
        j.add("month", month.description)
        j.addRaw("month_drivers", json: JSONLine.array(book.summary(month).drivers.map { d in
            var o = JSONLine()
            o.add("driver", d.driverName)
            o.add("distance_km", d.distanceMeters / 1000, decimals: 3)
            o.add("fuel_l", d.fuelLiters, decimals: 3)
            o.add("cost_cents", d.cost.value)
            return o.string
        }))
        let totals = SplitText.render(book.splits, by: .driver, json: true, units: book.units)
        j.addRaw("totals", json: String(totals.dropLast(totals.hasSuffix("\n") ? 1 : 0)))
        j.add("open_since_utc", TripText.utc(openBill.sinceUTCMs))
        var open = JSONLine()
        open.add("since_utc", TripText.utc(openBill.sinceUTCMs))
        open.add("estimated_price_per_l_cents", openBill.estimatedPricePerLiter, decimals: 3)
        open.addRaw("drivers", json: JSONLine.array(openBill.shares.map { share in
            var o = JSONLine()
            o.add("driver", share.driver == nil ? nil : share.driverName)
            o.add("untracked", share.driver == nil)
            o.add("fuel_l", share.fuelLiters, decimals: 3)
            o.add("estimated_cost_cents", openBill.estimatedPricePerLiter == nil ? nil : share.cost.value)
            return o.string
        }))
        j.addRaw("open_bill", json: open.string)
        j.addRaw("untracked", json: TripText.jsonArray(trips.filter(\.untracked)))
        let now = try await carNow()
        var n = JSONLine()
        switch now.driving {
        case .parked: n.add("driving", "parked")
        case .driven: n.add("driving", "driven")
        case .notKnown: n.add("driving", "not_known")
        }
        n.add("driver", now.driving.driverName)
        n.add("tank_l", now.tankLiters, decimals: 3)
        n.add("tank_capacity_l", now.tankCapacityLiters, decimals: 1)
        j.addRaw("now", json: n.string)
        return j.string
    }
}
