import FairFuelCore
import FairFuelReports
import FairFuelStore
import Hummingbird
import HummingbirdAuth

/// The pages: server-rendered, forms posted without script, each action the store operation the CLI calls.
extension WebApp {
    typealias PageHandler = @Sendable (Request, WebContext, WebSession) async throws(WebError) -> Response

    /// A page that needs a session (else to /login), its refusals shown on a page with their status.
    func page(_ handler: @escaping PageHandler) -> @Sendable (Request, WebContext) async throws -> Response {
        { request, context in
            let found: WebSession?
            do throws(WebError) { found = try await currentSession(context) } catch {
                return HTMLPage.response(HTMLPage.page("Not done", session: nil, body: HTMLPage.message(error.description, kind: "err")), status: error.status)
            }
            guard let session = found else { return HTMLPage.redirect("/login") }
            do throws(WebError) { return try await handler(request, context, session) } catch {
                let body = HTMLPage.message(error.description, kind: "err") + "<p><a href=\"/\">Back home</a></p>"
                return HTMLPage.response(HTMLPage.page("Not done", session: session, body: body), status: error.status)
            }
        }
    }

    func addPages(to router: Router<WebContext>) {
        router.get("/login") { _, _ in
            // The login form's own CSRF token, before any session: the same value in a strict cookie and the form.
            let token = Self.randomToken()
            var response = HTMLPage.response(HTMLPage.page("Log in", session: nil, body: PageViews.login(token: token, error: nil)))
            response.setCookie(Cookie(name: Self.loginCookie, value: token, path: "/login", secure: configuration.cookiesAreSecure, sameSite: .strict))
            return response
        }
        router.post("/login") { request, context in
            let token = request.cookies[Self.loginCookie]?.value ?? ""
            do {
                try requireSameOrigin(request)
                let form = try WebForm.parse(try await body(request, limit: 16 << 10), contentType: request.headers[.contentType])
                guard !token.isEmpty, constantTimeEqual(form.fields["csrf"] ?? "", token) else {
                    throw WebError.forbidden("the login form is stale: reload the page and try again")
                }
                _ = try await logIn(name: form["username"] ?? "", password: form.fields["password"] ?? "", context: context)
                return HTMLPage.redirect("/")
            } catch let error as WebError {
                let page = HTMLPage.page("Log in", session: nil, body: PageViews.login(token: token, error: error.description))
                return HTMLPage.response(page, status: error.status)
            }
        }
        router.post("/logout", use: page { request, context, session throws(WebError) in
            _ = try await form(request, session: session)
            context.sessions.clearSession()
            return HTMLPage.redirect("/login")
        })
        guard hub == nil else { return }  // the hub serves its own pages (WebApp+Hub)
        router.get("/", use: page { _, _, session throws(WebError) in
            let (book, trips) = try await self.book.snapshot()
            let now = try await carNow()
            let body = PageViews.home(
                book: book, trips: trips, now: now, month: currentMonth(book.units), openBill: try await self.book.openBill())
            return HTMLPage.response(HTMLPage.page(book.vehicle.name, session: session, body: body))
        })
        router.get("/trips", use: page { request, _, session throws(WebError) in
            let units = try await book.units()
            let driver = request.uri.queryParameters["driver"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
            let month = request.uri.queryParameters["month"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
            let trips = try await filteredTrips(driver: driver, month: month, units: units)
            let names = try await book.drivers().map(\.name)
            return HTMLPage.response(HTMLPage.page("Trips", session: session, body: PageViews.trips(trips, units: units, drivers: names, driver: driver, month: month)))
        })
        router.get("/trips/{id}", use: page { _, context, session throws(WebError) in
            let reference = try tripReference(context)
            let (row, points) = try await book.trip(reference)
            let units = try await book.units()
            let names = try await book.drivers().map(\.name)
            let body = PageViews.trip(row, points: points, units: units, drivers: names, session: session)
            return HTMLPage.response(HTMLPage.page("Trip \(reference)", session: session, body: body))
        })
        router.post("/trips/{id}/assign", use: page { request, context, session throws(WebError) in
            let reference = try tripReference(context)
            let form = try await form(request, session: session)
            let driver = form["driver"] ?? ""
            do throws(WebError) {
                let (change, trips) = try await assign(reference, to: driver, force: form["confirm"] != nil, session: session)
                let units = try await book.units()
                let headline = trips.map { "trip \($0.trip) → \($0.driverName ?? driver)" + ($0.session.map { ", now trip \($0)" } ?? "") }
                    .joined(separator: "; ")
                return HTMLPage.response(HTMLPage.page("Trip \(reference)", session: session, body: PageViews.change(headline, change: change, units: units)))
            } catch .needsConfirmation(let message) {
                let body = PageViews.confirm(message, action: "/trips/\(reference)/assign", fields: form.fields, session: session)
                return HTMLPage.response(HTMLPage.page("Trip \(reference)", session: session, body: body), status: .conflict)
            }
        })
        router.post("/trips/{id}/delete", use: page { request, context, session throws(WebError) in
            let reference = try tripReference(context)
            let form = try await form(request, session: session)
            try requireFamily(session, to: "delete a trip")
            do throws(WebError) {
                let (change, trip) = try await book.delete(reference, force: form["confirm"] != nil)
                let units = try await book.units()
                let headline = "trip \(reference) (\(trip.previousDriverName ?? "?")) deleted with its track; its fuel stays in the bills as untracked driving "
                    + trip.untracked.map { "u\($0)" }.joined(separator: ", ")
                return HTMLPage.response(HTMLPage.page("Trip deleted", session: session, body: PageViews.change(headline, change: change, units: units)))
            } catch .needsConfirmation(let message) {
                let body = PageViews.confirm(message, action: "/trips/\(reference)/delete", fields: form.fields, session: session)
                return HTMLPage.response(HTMLPage.page("Trip \(reference)", session: session, body: body), status: .conflict)
            }
        })
        router.get("/refuels/new", use: page { _, _, session throws(WebError) in
            let units = try await book.units()
            return HTMLPage.response(HTMLPage.page("Refuel", session: session, body: PageViews.refuelForm(units: units, session: session)))
        })
        router.post("/refuels", use: page { request, _, session throws(WebError) in
            try await newRefuel(request, session: session)
        })
        router.get("/refuels/{id}/edit", use: page { _, context, session throws(WebError) in
            try requireFamily(session, to: "correct a refuel")
            let id = try refuelID(context)
            let bill = try await book.refuel(id)
            let body = PageViews.refuelEdit(id: id, bill, units: try await book.units(), session: session)
            return HTMLPage.response(HTMLPage.page("Correct refuel \(id)", session: session, body: body))
        })
        router.post("/refuels/{id}/edit", use: page { request, context, session throws(WebError) in
            let form = try await form(request, session: session)
            try requireFamily(session, to: "correct a refuel")
            let id = try refuelID(context)
            let bill = try await book.refuel(id)
            let units = try await book.units()
            do throws(WebError) {
                let edit = try RefuelEntry.edit(
                    of: bill, at: form["at"], liters: form["liters"], gallons: form["gallons"], cost: form["cost"], full: form["full"] != nil,
                    odometerKilometers: form["odometer_km"], units: units)
                let change = try await book.editRefuel(id: id, edit, confirmed: form["confirm"] != nil)
                let body = PageViews.change("refuel \(id) corrected; bills re-split, calibration relearnt", change: change, units: units)
                return HTMLPage.response(HTMLPage.page("Refuel \(id) corrected", session: session, body: body))
            } catch .needsConfirmation(let message) {
                let body = PageViews.confirm(message, action: "/refuels/\(id)/edit", fields: form.fields, session: session)
                return HTMLPage.response(HTMLPage.page("Correct refuel \(id)", session: session, body: body), status: .conflict)
            } catch {
                let body = PageViews.refuelEdit(id: id, bill, units: units, session: session, values: form.fields, error: error.description)
                return HTMLPage.response(HTMLPage.page("Correct refuel \(id)", session: session, body: body), status: error.status)
            }
        })
        router.post("/refuels/{id}/remove", use: page { request, context, session throws(WebError) in
            let form = try await form(request, session: session)
            try requireFamily(session, to: "remove a refuel")
            let id = try refuelID(context)
            do throws(WebError) {
                let change = try await book.removeRefuel(id: id, confirmed: form["confirm"] != nil)
                let body = PageViews.change("refuel \(id) removed; splits recomputed", change: change, units: try await book.units())
                return HTMLPage.response(HTMLPage.page("Refuel \(id) removed", session: session, body: body))
            } catch .needsConfirmation(let message) {
                let body = PageViews.confirm(message, action: "/refuels/\(id)/remove", fields: form.fields, session: session)
                return HTMLPage.response(HTMLPage.page("Remove refuel \(id)", session: session, body: body), status: .conflict)
            }
        })
        router.get("/refuels/{id}/receipt", use: page { _, context, _ throws(WebError) in
            let id = try refuelID(context)
            guard let receipt = try await book.receipt(refuel: id) else { throw .notFound("refuel \(id) has no receipt") }
            return Response(
                status: .ok, headers: [.contentType: receipt.mediaType, .cacheControl: "private, no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: receipt.image)))
        })
        router.get("/bills", use: page { _, _, session throws(WebError) in
            let units = try await book.units()
            let splits = try await book.splits()
            let receipts = try await book.refuelsWithReceipts()
            let body = PageViews.bills(splits, units: units, session: session, receipts: receipts)
            return HTMLPage.response(HTMLPage.page("Bills", session: session, body: body))
        })
        router.post("/bills/{id}/settle", use: page { request, context, session throws(WebError) in
            _ = try await form(request, session: session)
            try requireFamily(session, to: "settle a bill")
            _ = try await book.settle(try refuelID(context))
            return HTMLPage.redirect("/bills")
        })
        router.post("/bills/{id}/unsettle", use: page { request, context, session throws(WebError) in
            _ = try await form(request, session: session)
            try requireFamily(session, to: "unsettle a bill")
            let id = try refuelID(context)
            let (change, _) = try await book.unsettle(id)
            let units = try await book.units()
            return HTMLPage.response(HTMLPage.page("Bill \(id)", session: session, body: PageViews.change("bill \(id) unsettled; re-split from the data", change: change, units: units)))
        })
        router.get("/bills.csv", use: page { _, _, _ throws(WebError) in
            let units = try await book.units()
            return download(SplitCSV.csv(try await book.splits(), units: units), type: "text/csv; charset=utf-8", name: "fairfuel-bills.csv")
        })
        router.get("/report.html", use: page { request, _, _ throws(WebError) in
            let book = try await self.book.book()
            var month = book.latestMonth
            if let text = request.uri.queryParameters["month"].map(String.init), !text.isEmpty {
                do { month = try CalendarMonth.parse(text) } catch { throw .badRequest("month: \(error)") }
            }
            return download(book.report(month).page, type: "text/html; charset=utf-8", name: "fairfuel-\(month?.description ?? "all").html")
        })
        router.get("/charts", use: page { _, _, session throws(WebError) in
            let book = try await self.book.book()
            return HTMLPage.response(HTMLPage.page("Charts", session: session, body: PageViews.charts(WebCharts.all(book))))
        })
        router.get("/drivers", use: page { _, _, session throws(WebError) in
            let drivers = try await book.drivers()
            let body = PageViews.drivers(drivers, session: session, enrolment: enrolment.current)
            return HTMLPage.response(HTMLPage.page("Drivers", session: session, body: body))
        })
        router.post("/drivers/add", use: page { request, _, session throws(WebError) in
            let form = try await form(request, session: session)
            try requireFamily(session, to: "add a driver")
            let driver = try await book.addDriver(named: form["name"] ?? "")
            return try await learn(.tag, driver: driver, session: session, headline: "\(driver.name) is added. ")
        })
        router.get("/drivers/{id}/learn", use: page { _, context, session throws(WebError) in
            let driver = try await book.driver(id: try driverID(context))
            let state = enrolment.current.flatMap { $0.driverID == driver.id.rawValue ? $0 : nil }
            let body = PageViews.learning(driver, state: state, session: session)
            // Reloaded every second while the car waits: the tap shows up as it arrives, without script.
            return HTMLPage.response(HTMLPage.page(driver.name, session: session, body: body, refreshSeconds: state?.outcome == nil && state != nil ? 1 : nil))
        })
        router.post("/drivers/{id}/learn", use: page { request, context, session throws(WebError) in
            let form = try await form(request, session: session)
            try requireFamily(session, to: "give a driver a fob")
            let driver = try await book.driver(id: try driverID(context))
            guard let step = WebEnrolment.Step(rawValue: form["step"] ?? "") else { throw .badRequest("step must be tag or beacon") }
            return try await learn(step, driver: driver, session: session)
        })
        router.post("/drivers/{id}/rename", use: page { request, context, session throws(WebError) in
            let form = try await form(request, session: session)
            try requireFamily(session, to: "rename a driver")
            _ = try await book.renameDriver(id: try driverID(context), to: form["name"] ?? "")
            return HTMLPage.redirect("/drivers")
        })
        router.post("/drivers/{id}/remove", use: page { request, context, session throws(WebError) in
            _ = try await form(request, session: session)
            try requireFamily(session, to: "remove a driver")
            _ = try await book.removeDriver(id: try driverID(context))
            return HTMLPage.redirect("/drivers")
        })
    }

    // MARK: Shared by the pages and the API

    /// "This month" on the home page and in its API: the calendar month of the request's clock in the
    /// vehicle's time zone (the month the family is living, even before anyone drove in it).
    func currentMonth(_ units: DisplayUnits) -> CalendarMonth {
        CalendarMonth(utcMs: configuration.nowUTCMs(), in: units.timeZone)
    }

    /// The tank from the store, and the driving from the running service when one answers.
    func carNow() async throws(WebError) -> CarNow {
        let tank = try await book.tank()
        let askService = configuration.askService
        let status = await WebEnrolment.blocking { askService("status", 2) }
        return CarNow(tankLiters: tank.liters, tankCapacityLiters: tank.capacityLiters, status: status)
    }

    /// Asks the car to learn the driver's tag or beacon, then shows the wait live; without a service
    /// (or while it waits for another) the driver's page says why.
    func learn(_ step: WebEnrolment.Step, driver: DriverRecord, session: WebSession, headline: String = "") async throws(WebError) -> Response {
        do throws(WebError) {
            try await enrolment.start(driverID: driver.id.rawValue, driverName: driver.name, step: step, askService: configuration.askService)
        } catch {
            let body = HTMLPage.message(headline + error.description, kind: "err") + PageViews.learning(driver, state: nil, session: session)
            return HTMLPage.response(HTMLPage.page(driver.name, session: session, body: body), status: error.status)
        }
        return HTMLPage.redirect("/drivers/\(driver.id.rawValue)/learn")
    }

    /// Giving a trip to a driver: a driver-role user may only name their own untracked driving.
    func assign(_ reference: TripReference, to driver: String, force: Bool, session: WebSession) async throws(WebError)
        -> (change: BookChange, trips: [TripCorrection])
    {
        if !session.isFamily {
            guard case .untracked = reference else { throw .forbidden("only a family user may move a recorded trip; \(session.name) is a driver") }
            guard driver.lowercased() == session.name.lowercased() else {
                throw .forbidden("a driver names only their own trips: \(session.name) cannot give one to \(driver)")
            }
        }
        return try await book.assign(reference, to: driver, force: force)
    }

    /// Trips of one driver (or `(untracked)`) and one month (YYYY-MM, the vehicle's calendar).
    func filteredTrips(driver: String?, month: String?, units: DisplayUnits) async throws(WebError) -> [TripRow] {
        var trips = try await book.trips()
        if let month {
            let period: CalendarMonth
            do { period = try CalendarMonth.parse(month) } catch { throw .badRequest("month: \(error)") }
            trips = trips.filter { $0.startUTCMs.map { period.contains(utcMs: $0, in: units.timeZone) } ?? false }
        }
        if let driver {
            trips = driver == "(untracked)" ? trips.filter(\.untracked) : trips.filter { !$0.untracked && $0.driverName.lowercased() == driver.lowercased() }
        }
        return trips
    }

    func tripReference(_ context: WebContext) throws(WebError) -> TripReference {
        let text = context.parameters.get("id") ?? ""
        guard let reference = TripReference(text) else { throw .notFound("'\(text)' is not a trip id (42, or u7)") }
        return reference
    }

    func refuelID(_ context: WebContext) throws(WebError) -> Int64 {
        guard let id = context.parameters.get("id").flatMap({ Int64($0) }) else { throw .notFound("no such bill") }
        return id
    }

    func driverID(_ context: WebContext) throws(WebError) -> Int64 {
        guard let id = context.parameters.get("id").flatMap({ Int64($0) }) else { throw .notFound("no such driver") }
        return id
    }

    func download(_ text: String, type: String, name: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: type, .contentDisposition: "attachment; filename=\"\(name)\"", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
