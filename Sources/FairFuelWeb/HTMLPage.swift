import FairFuelReports
import Hummingbird

/// The app's page frame: phone first (one column at 360 px, wider tables scroll), no external asset,
/// no script; every text put in it goes through `h`, the reports' escaping.
enum HTMLPage {
    /// Text escaped for HTML (the reports' XML escaping: the five special characters, control characters dropped).
    static func h(_ text: String) -> String { GPXWriter.escape(text) }

    static let style = """
        *{box-sizing:border-box}body{margin:0;font:16px/1.4 system-ui,sans-serif;color:#1b1f23;background:#f6f7f9}
        header{background:#124e78;color:#fff;padding:.5rem .75rem}header a{color:#fff;text-decoration:none;margin-right:.75rem;display:inline-block;padding:.25rem 0}
        header strong{margin-right:1rem}main{padding:.75rem;max-width:60rem;margin:auto}
        h1{font-size:1.3rem;margin:.5rem 0}h2{font-size:1.1rem;margin:1rem 0 .4rem}
        .card{background:#fff;border:1px solid #dde1e6;border-radius:.5rem;padding:.75rem;margin:.6rem 0;overflow-x:auto}
        table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .35rem;border-bottom:1px solid #eceff3;vertical-align:top}
        td.n,th.n{text-align:right;white-space:nowrap}label{display:block;margin:.5rem 0 .2rem;font-weight:600}
        input,select,textarea{font:inherit;width:100%;padding:.55rem;border:1px solid #b8c0c8;border-radius:.35rem;background:#fff}
        input[type=checkbox]{width:auto;transform:scale(1.3);margin-right:.5rem}
        button{font:inherit;padding:.6rem 1rem;border:0;border-radius:.35rem;background:#124e78;color:#fff;margin:.4rem .3rem .4rem 0;min-height:44px}
        button.danger{background:#a4262c}form.inline{display:inline}.msg{padding:.6rem;border-radius:.35rem;margin:.5rem 0}
        .err{background:#fde7e9;border:1px solid #a4262c}.ok{background:#e6f4ea;border:1px solid #2e7d32}.warn{background:#fff4ce;border:1px solid #8a6d00}
        pre{white-space:pre;overflow-x:auto;font-size:.8rem;background:#f0f2f4;padding:.5rem;border-radius:.35rem}
        svg{width:100%;height:auto;background:#fff;border:1px solid #dde1e6;border-radius:.35rem}.muted{color:#5b6670}
        """

    /// A whole page: the navigation for a logged-in user, `body` as given (already escaped).
    /// `refreshSeconds`: the page reloads itself (a wait shown live without script).
    static func page(_ title: String, session: WebSession?, body: String, refreshSeconds: Int? = nil, links: String? = nil) -> String {
        var nav = "<strong>FairFuel</strong>"
        if let session {
            // `links`: the hub's own pages in place of the car's.
            nav += links ?? ("<a href=\"/\">Home</a><a href=\"/trips\">Trips</a><a href=\"/refuels/new\">Refuel</a>"
                + "<a href=\"/bills\">Bills</a><a href=\"/charts\">Charts</a><a href=\"/drivers\">Drivers</a>")
            nav += "<form class=\"inline\" method=\"post\" action=\"/logout\">\(csrfField(session))"
                + "<button type=\"submit\" style=\"padding:.2rem .6rem;min-height:0;background:#0b3552\">Log out \(h(session.name))</button></form>"
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">\(refreshSeconds.map { "<meta http-equiv=\"refresh\" content=\"\($0)\">" } ?? "")
            <title>\(h(title)) · FairFuel</title><style>\(style)</style></head>
            <body><header>\(nav)</header><main><h1>\(h(title))</h1>
            \(body)
            </main></body></html>
            """
    }

    /// The hidden field every form carries: the session's CSRF token.
    static func csrfField(_ session: WebSession) -> String {
        "<input type=\"hidden\" name=\"csrf\" value=\"\(h(session.csrfToken))\">"
    }

    static func message(_ text: String, kind: String) -> String {
        "<div class=\"msg \(kind)\" role=\"\(kind == "err" ? "alert" : "status")\">\(h(text))</div>"
    }

    static func response(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }

    /// A POST button in its own form (with the CSRF token).
    static func button(_ label: String, action: String, session: WebSession, danger: Bool = false, hidden: [(String, String)] = []) -> String {
        let fields = hidden.map { "<input type=\"hidden\" name=\"\(h($0.0))\" value=\"\(h($0.1))\">" }.joined()
        return "<form class=\"inline\" method=\"post\" action=\"\(h(action))\">\(csrfField(session))\(fields)"
            + "<button type=\"submit\"\(danger ? " class=\"danger\"" : "")>\(h(label))</button></form>"
    }

    /// A table from header cells and rows of cells (already escaped); `numeric` columns align right.
    static func table(_ header: [String], _ rows: [[String]], numeric: Set<Int> = [], rowAttributes: [String] = []) -> String {
        func cells(_ row: [String], tag: String) -> String {
            row.enumerated().map { "<\(tag)\(numeric.contains($0.offset) ? " class=\"n\"" : "")>\($0.element)</\(tag)>" }.joined()
        }
        // A table of label and value has no header row.
        let head = header.allSatisfy(\.isEmpty) ? "" : "<thead><tr>\(cells(header.map(h), tag: "th"))</tr></thead>"
        var text = "<table>\(head)<tbody>"
        for (index, row) in rows.enumerated() {
            let attributes = index < rowAttributes.count ? " " + rowAttributes[index] : ""
            text += "<tr\(attributes)>\(cells(row, tag: "td"))</tr>"
        }
        return text + "</tbody></table>"
    }
}
