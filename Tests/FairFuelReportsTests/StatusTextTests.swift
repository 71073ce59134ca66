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
        // Read back whole; its controls then shown as escapes, as every text output shows them.
        #expect(text == "firmware_warning      board \"rev B\"\\old\\u{A}firmware\\u{9}1.2 \\u{8}\\u{C}\\u{1} café 🚗\nlink                  up\n")
    }

    /// A driver name with a terminal escape (retitle, clear screen) and a right-to-left override,
    /// as a status answer carries it: printed as visible escapes, printable Unicode as it is.
    @Test func controlsAndBidiOverridesInNamesAreShownAsEscapes() throws {
        var session = JSONLine()
        session.add("driver", "Al\u{1B}]0;pwned\u{07}ice\u{1B}[2J \u{202E}evil\u{0} Zoë")
        var json = JSONLine()
        json.addRaw("session", json: session.string)
        json.add("vehicle\u{1B}[31m", "Golf\u{9B}")
        let text = try #require(StatusText.text(json.string))
        #expect(text == "session               driver Al\\u{1B}]0;pwned\\u{7}ice\\u{1B}[2J \\u{202E}evil\\u{0} Zoë\n"
            + "vehicle\\u{1B}[31m     Golf\\u{9B}\n")
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" })
    }

    @Test func anUnterminatedOrBadlyEscapedStringIsNotReadAsStatus() {
        #expect(StatusText.text("{\"link\":\"up") == nil)
        #expect(StatusText.text("{\"link\":\"u\\qp\"}") == nil)
    }
}
