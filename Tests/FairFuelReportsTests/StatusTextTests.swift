import FairFuelCore
import FairFuelReports
import Testing

/// `fairfuel status` reads back the JSON the service wrote with `JSONLine`: every escape undone.
@Suite struct StatusTextTests {
    @Test func stringsWithEveryEscapeReadBackAsTheServiceWroteThem() throws {
        let warning = "board \"rev B\"\\old\nfirmware\t1.2 \u{08}\u{0C}\u{01} café 🚗"
        var json = JSONLine()
        json.add("firmware_warning", warning)
        json.add("link", "up")
        let text = try #require(StatusText.text(json.string))
        #expect(text == "firmware_warning      \(warning)\nlink                  up\n")
    }

    @Test func anUnterminatedOrBadlyEscapedStringIsNotReadAsStatus() {
        #expect(StatusText.text("{\"link\":\"up") == nil)
        #expect(StatusText.text("{\"link\":\"u\\qp\"}") == nil)
    }
}
