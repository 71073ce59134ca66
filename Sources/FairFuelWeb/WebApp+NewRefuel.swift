import Hummingbird

/// The pump's form: a refuel and its receipt photo, one upload at a time (`UploadGate`); a photo
/// sent with a refuel that asks for a confirmation waits for it (`PendingReceipts`), so the
/// confirmed refuel keeps its receipt.
extension WebApp {
    /// The hidden field of the confirm form that takes the waiting photo back.
    static let receiptTokenField = "receipt_token"

    func newRefuel(_ request: Request, session: WebSession) async throws(WebError) -> Response {
        try await uploads.withPermit { () async throws(WebError) -> Response in
            var form = try await form(request, session: session)
            let units = try await book.units()
            var receipt: ReceiptImage?
            do throws(WebError) {
                receipt = try form.files["receipt"].map { file throws(WebError) in try ReceiptImage(file.bytes) }
                // The file part is a view of the request body: let the body go before SQLite copies the photo.
                form.files = [:]
                if receipt == nil, let token = form[Self.receiptTokenField] {
                    guard let waiting = pendingReceipts.take(token, userID: session.userID) else {
                        throw .refused("the receipt photo waited too long for the confirmation: choose it again; nothing was saved")
                    }
                    receipt = waiting
                }
                let input = try RefuelEntry.input(
                    liters: form["liters"], gallons: form["gallons"], cost: form["cost"], full: form["full"] != nil,
                    odometerKilometers: form["odometer_km"],
                    station: form["station"], note: form["note"], units: units, nowUTCMs: configuration.nowUTCMs())
                let (id, change) = try await book.addRefuel(input, confirmed: form["confirm"] != nil, receipt: receipt)
                let headline = "refuel \(id): \(units.volumeText(liters: input.liters)) for \(units.moneyWithCurrency(input.cost)), "
                    + (input.fullTank ? "full tank" : "partial") + (receipt == nil ? "" : ", receipt kept")
                return HTMLPage.response(HTMLPage.page("Refuel saved", session: session, body: PageViews.change(headline, change: change, units: units)))
            } catch .needsConfirmation(let message) {
                var fields = form.fields
                fields[Self.receiptTokenField] = receipt.map { pendingReceipts.keep($0, userID: session.userID) }
                let note = receipt == nil ? "" : " (the receipt photo waits for the confirmation)"
                let body = PageViews.confirm(message + note, action: "/refuels", fields: fields, session: session)
                return HTMLPage.response(HTMLPage.page("Refuel", session: session, body: body), status: .conflict)
            } catch {
                let body = PageViews.refuelForm(units: units, session: session, values: form.fields, error: error.description)
                return HTMLPage.response(HTMLPage.page("Refuel", session: session, body: body), status: error.status)
            }
        }
    }
}
