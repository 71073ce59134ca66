import FairFuelCore
import Testing
@testable import fairfuel

/// `mcu info`'s reader of the service's answer, fed what the service writes with `JSONLine`.
@Suite struct FlatJSONTests {
    @Test func aNameWithNewlineTabQuoteBackslashAndControlCharactersReadsBackAsWritten() {
        let name = "car 1\nline 2\tTab \"Q\" C:\\mcu \u{01}\u{1F}\u{08}\u{0C}\r é"
        var json = JSONLine()
        json.add("link", "up")
        json.add("name", name)
        json.addRaw("capabilities", json: JSONLine.array(["nfc\nreader", "ble\"scanner"].map { item in
            var quoted = ""
            JSONLine.appendQuoted(item, to: &quoted)
            return quoted
        }))
        json.add("board_id", "0x0101")
        json.add("uptime_ms_at_hello", 1_000)
        json.add("mcu_board", nil as String?)
        #expect(json.string == #"{"link":"up","name":"car 1\nline 2\tTab \"Q\" C:\\mcu \u0001\u001f\b\f\r é","#
            + #""capabilities":["nfc\nreader","ble\"scanner"],"board_id":"0x0101","uptime_ms_at_hello":1000,"mcu_board":null}"#)
        let fields = FlatJSON(json.string + "\n")
        #expect(fields["name"] == name)
        #expect(fields["link"] == "up")
        #expect(fields.list("capabilities") == ["nfc\nreader", "ble\"scanner"])
        #expect(fields["board_id"] == "0x0101")
        #expect(fields["uptime_ms_at_hello"] == "1000")
        #expect(fields["mcu_board"] == nil)
    }
}
