@testable import FairFuelWeb
import Testing

/// The web app's own parts: receipt photos, forms, the login limit.
struct WebPartsTests {
    /// A JPEG with an EXIF segment (a GPS position's place) and a comment around its image data.
    static let jpeg: [UInt8] = [0xFF, 0xD8]
        + [0xFF, 0xE0, 0x00, 0x06, 0x4A, 0x46, 0x49, 0x46]  // APP0 JFIF
        + [0xFF, 0xE1, 0x00, 0x08] + Array("Exif".utf8) + [0x00, 0x00]  // APP1 EXIF
        + [0xFF, 0xFE, 0x00, 0x05, 0x61, 0x62, 0x63]  // COM
        + [0xFF, 0xDA, 0x00, 0x02, 0x11, 0x22, 0xFF, 0xD9]  // scan and end

    @Test func aReceiptLosesItsMetadataAndKeepsItsImage() throws {
        let receipt = try ReceiptImage(Self.jpeg)
        #expect(receipt.mediaType == "image/jpeg")
        #expect(receipt.bytes == [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x06, 0x4A, 0x46, 0x49, 0x46, 0xFF, 0xDA, 0x00, 0x02, 0x11, 0x22, 0xFF, 0xD9])
        #expect(!receipt.bytes.starts(with: Array("Exif".utf8)))
        let png = ReceiptImage.pngSignature + chunk("IHDR", 13) + chunk("eXIf", 6) + chunk("tEXt", 4) + chunk("IDAT", 3) + chunk("IEND", 0)
        let stripped = try ReceiptImage(png)
        #expect(stripped.mediaType == "image/png")
        #expect(stripped.bytes == ReceiptImage.pngSignature + chunk("IHDR", 13) + chunk("IDAT", 3) + chunk("IEND", 0))
    }

    func chunk(_ type: String, _ length: Int) -> [UInt8] {
        [0, 0, 0, UInt8(length)] + Array(type.utf8) + [UInt8](repeating: 7, count: length) + [1, 2, 3, 4]
    }

    @Test func whatIsNoJPEGOrPNGByItsBytesIsRefused() {
        #expect(throws: WebError.self) { try ReceiptImage(Array("GIF89a....".utf8)) }
        #expect(throws: WebError.self) { try ReceiptImage([0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF]) }  // a segment past the end
        #expect(throws: WebError.self) { try ReceiptImage(ReceiptImage.pngSignature + [0, 0, 0, 200]) }
    }

    @Test func formsAreReadURLEncodedOrMultipart() throws {
        let plain = try WebForm.parse(Array("liters=42.5&station=Total+Rue%20de+Rivoli&note=".utf8), contentType: "application/x-www-form-urlencoded")
        #expect(plain["liters"] == "42.5" && plain["station"] == "Total Rue de Rivoli" && plain["note"] == nil)
        let body = "--b\r\nContent-Disposition: form-data; name=\"cost\"\r\n\r\n64.90\r\n"
            + "--b\r\nContent-Disposition: form-data; name=\"receipt\"; filename=\"r.jpg\"\r\nContent-Type: image/jpeg\r\n\r\nJPEG\r\n--b--\r\n"
        let multipart = try WebForm.parse(Array(body.utf8), contentType: "multipart/form-data; boundary=b")
        #expect(multipart["cost"] == "64.90")
        #expect(multipart.files["receipt"].map { Array($0.bytes) } == Array("JPEG".utf8) && multipart.files["receipt"]?.fileName == "r.jpg")
        #expect(throws: WebError.self) { try WebForm.parse(Array("{}".utf8), contentType: "application/json") }
        #expect(throws: WebError.self) { try WebForm.parse(Array("garbage".utf8), contentType: "multipart/form-data; boundary=b") }
    }

    @Test func theLoginLimitCountsEachAttemptBeforeItIsCheckedAndTheWaitGrows() {
        let throttle = LoginThrottle(allowed: 3, firstWait: .seconds(1), longestWait: .seconds(60), capacity: 5)
        let start = ContinuousClock.now
        // Attempts started together (nothing verified yet) are each counted: the fourth waits.
        for _ in 0..<3 { #expect(throttle.attempt(["name:mum"], now: start) == nil) }
        #expect(throttle.attempt(["name:mum"], now: start) == 1)
        #expect(throttle.attempt(["name:dad"], now: start) == nil, "another name is not held up")
        // Each failure past the allowed doubles the wait, up to the longest.
        #expect(throttle.attempt(["name:mum"], now: start + .seconds(1)) == nil)
        #expect(throttle.attempt(["name:mum"], now: start + .seconds(2)) == 1, "2 s after the last failure at 1 s")
        #expect(throttle.attempt(["name:mum"], now: start + .seconds(3)) == nil)
        #expect(throttle.attempt(["name:mum"], now: start + .seconds(4)) == 3, "4 s after the last failure at 3 s")
        #expect(throttle.wait(afterFailures: 40) == .seconds(60))
        // A wait on any key holds the attempt, and nothing is counted while it waits.
        #expect(throttle.attempt(["name:dad", "name:mum"], now: start + .seconds(4)) == 3)
        #expect(throttle.attempt(["name:dad"], now: start + .seconds(4)) == nil)
        // A success clears; after twice the longest wait without an attempt a key is forgotten.
        throttle.succeeded(["name:dad"])
        #expect(throttle.attempt(["name:mum"], now: start + .seconds(3 + 120)) == nil)
        for index in 0..<50 { _ = throttle.attempt(["address:192.0.2.\(index)"], now: start + .seconds(Int64(index))) }
        #expect(throttle.rememberedKeys == 5)
    }

    @Test func behindTheLocalProxyALoginCountsByNameElseByNameAndAddress() {
        #expect(WebApp.throttleKeys(name: " Mum ", peerAddress: "127.0.0.1") == ["name:mum"])
        #expect(WebApp.throttleKeys(name: "mum", peerAddress: "::1") == ["name:mum"])
        #expect(WebApp.throttleKeys(name: "mum", peerAddress: nil) == ["name:mum"])
        #expect(WebApp.throttleKeys(name: "MUM", peerAddress: "192.168.1.20") == ["name:mum", "address:192.168.1.20"])
    }

    @Test func aBcryptHashsCostIsReadFromItsText() throws {
        #expect(WebPassword.cost(ofHash: try WebPassword.hash("long enough", cost: 5)) == 5)
        #expect(WebPassword.cost(ofHash: "$2b$12$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234") == 12)
        #expect(WebPassword.cost(ofHash: "plain text") == nil)
        #expect(WebPassword.cost(ofHash: "$2b$x$") == nil)
    }

    @Test func listenAddressesAreHostAndPort() throws {
        #expect(try WebConfiguration.listenAddress("127.0.0.1:8080") == ("127.0.0.1", 8080))
        #expect(try WebConfiguration.listenAddress("[::1]:0") == ("::1", 0))
        #expect(throws: WebError.self) { try WebConfiguration.listenAddress("localhost") }
        #expect(throws: WebError.self) { try WebConfiguration.listenAddress("host:99999") }
    }

    /// What the home page makes of the service's status: its session state and driver, else not known.
    @Test func theCarNowFromTheServicesStatus() {
        #expect(CarNow.driving(.answered("{\"link\":\"up\",\"session_state\":\"IDLE\",\"driver\":null}\n")) == .parked)
        #expect(CarNow.driving(.answered("{\"session_state\":\"ACTIVE\",\"driver\":\"Dora\",\"session_km\":2.125}")) == .driven(driver: "Dora", kilometers: 2.125))
        #expect(CarNow.driving(.answered("{\"session_state\":\"STARTING\",\"driver\":null}")) == .driven(driver: nil, kilometers: nil))
        #expect(CarNow.driving(.answered("error: busy\n")) == .notKnown)
        #expect(CarNow.driving(.answered("{\"link\":\"up\"}")) == .notKnown)
        #expect(CarNow.driving(.notRunning("no control socket")) == .notKnown)
    }
}
