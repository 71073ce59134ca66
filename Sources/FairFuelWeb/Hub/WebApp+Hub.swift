import FairFuelCore
import Hummingbird

/// The hub's routes (`fairfuel web --hub-db FILE`): the family view of every car, read-only; the
/// login, logout and session routes are the car's app's own.
extension WebApp {
    func addHubRoutes(to router: Router<WebContext>) {
        // On a car the API's family route says where it is served (a JSON 404, as the document declares).
        router.group("/api/v1").get("/family", use: api { request, _, _ throws(WebError) in
            guard let hub else { throw .notFound("the family view of every car is served by the hub's app (fairfuel web --hub-db FILE)") }
            return Self.json(try hub.json(month: request.uri.queryParameters["month"].map(String.init), nowUTCMs: configuration.nowUTCMs()))
        })
        guard let hub else { return }
        router.get("/", use: page { _, _, _ throws(WebError) in HTMLPage.redirect("/family") })
        router.get("/family", use: page { request, _, session throws(WebError) in
            let body = try hub.page(month: request.uri.queryParameters["month"].map(String.init), nowUTCMs: configuration.nowUTCMs())
            let page = HTMLPage.page("Family", session: session, body: body, links: HubPageViews.links)
            return HTMLPage.response(page)
        })
    }
}
