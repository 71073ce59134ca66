@testable import FairFuelWeb
import Foundation
import Hummingbird
import Testing
import TestSupport

/// The refuel form's receipt photo on a real store and loopback port: kept through a confirmation,
/// refused past the receipts' total with nothing changed.
@Suite(.serialized) struct WebReceiptTests {
    static func form(_ web: WebClient, cost: String, station: String, receipt: [UInt8]) -> [UInt8] {
        var body: [UInt8] = []
        for (name, value) in [("csrf", web.csrfToken), ("liters", "10"), ("cost", cost), ("station", station)] {
            body += Array("--b\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        body += Array("--b\r\nContent-Disposition: form-data; name=\"receipt\"; filename=\"r.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
        return body + receipt + Array("\r\n--b--\r\n".utf8)
    }

    static func stations(_ db: String) throws -> [String: Int] {
        let log = try WebRig.cliJSON(["refuel", "list", "--json"], db: db) as! [[String: Any]]
        return Dictionary(log.compactMap { entry in (entry["station"] as? String).map { ($0, entry["id"] as! Int) } }) { first, _ in first }
    }

    @Test func aConfirmedRefuelKeepsItsReceiptPhoto() async throws {
        let db = try WebRig.store()
        try await WebRig.serve(db) { web in
            _ = try await web.logIn("mum", WebRig.familyPassword)
            let upload = ReceiptFixtures.withMetadata(ReceiptFixtures.baseline)
            // Ten times the usual price: the confirm page, with the photo waiting under a token.
            let asked = try await web.send(
                .post, "/refuels", contentType: "multipart/form-data; boundary=b",
                body: Self.form(web, cost: "180.00", station: "Odd", receipt: upload), csrf: false)
            #expect(asked.status == .conflict && asked.text.contains("Confirm") && asked.text.contains("receipt photo waits"), "\(asked.text.prefix(600))")
            #expect(try Self.stations(db)["Odd"] == nil)
            let match = try #require(asked.text.firstMatch(of: /name="receipt_token" value="([0-9a-f]+)"/))
            let token = String(match.1)
            let confirm = "csrf=\(web.csrfToken)&liters=10&cost=180.00&station=Odd&confirm=1&receipt_token=\(token)"
            let saved = try await web.send(.post, "/refuels", form: confirm, csrf: false)
            #expect(saved.status == .ok && saved.text.contains("receipt kept"), "\(saved.text.prefix(600))")
            let id = try #require(try Self.stations(db)["Odd"])
            let photo = try await web.send(.get, "/refuels/\(id)/receipt")
            #expect(photo.status == .ok && photo.bytes == ReceiptFixtures.baseline)
            // A token is taken once: sent again it is refused and nothing is added.
            let again = try await web.send(.post, "/refuels", form: confirm.replacingOccurrences(of: "Odd", with: "Twice"), csrf: false)
            #expect(again.status == .unprocessableContent && again.text.contains("choose it again"), "\(again.text.prefix(600))")
            #expect(try Self.stations(db)["Twice"] == nil)
        }
    }

    @Test func aPhotoPastTheReceiptsTotalIsRefusedAndTheRefuelIsNotAdded() async throws {
        let db = try WebRig.store()
        let limit = Int64(ReceiptFixtures.baseline.count + ReceiptFixtures.progressive.count / 2)
        try await WebRig.serve(db, receiptsLimitBytes: limit) { web in
            _ = try await web.logIn("cara", WebRig.driverPassword)
            let first = try await web.send(
                .post, "/refuels", contentType: "multipart/form-data; boundary=b",
                body: Self.form(web, cost: "18.10", station: "First", receipt: ReceiptFixtures.motionPhoto(ReceiptFixtures.baseline)), csrf: false)
            #expect(first.status == .ok, "\(first.text.prefix(600))")
            let second = try await web.send(
                .post, "/refuels", contentType: "multipart/form-data; boundary=b",
                body: Self.form(web, cost: "18.10", station: "Second", receipt: ReceiptFixtures.progressive), csrf: false)
            #expect(second.status == .unprocessableContent && second.text.contains("receipts_limit_mib"), "\(second.text.prefix(600))")
            let stations = try Self.stations(db)
            #expect(stations["First"] != nil && stations["Second"] == nil)
        }
    }

    @Test func photosWaitingForAConfirmationAreBoundedAndExpire() throws {
        let receipt = try ReceiptImage(ReceiptFixtures.baseline)
        let pending = PendingReceipts(lifetime: .seconds(60), capacityBytes: receipt.bytes.count * 3)
        let start = ContinuousClock.now
        let tokens = (0..<10).map { pending.keep(receipt, userID: 1, now: start + .seconds($0)) }
        #expect(pending.waitingBytes <= receipt.bytes.count * 3)
        #expect(pending.take(tokens[0], userID: 1, now: start + .seconds(10)) == nil, "the oldest was pushed out")
        #expect(pending.take(tokens[9], userID: 2, now: start + .seconds(10)) == nil, "another user's")
        #expect(pending.take(tokens[9], userID: 1, now: start + .seconds(10)) == receipt)
        #expect(pending.take(tokens[8], userID: 1, now: start + .seconds(90)) == nil, "waited too long")
    }
}
