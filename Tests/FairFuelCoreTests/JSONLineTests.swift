import FairFuelCore
import Testing

@Suite struct JSONLineTests {
    @Test func keepsKeyOrderAndEscapes() {
        var json = JSONLine()
        json.add("b", 1)
        json.add("a", "x\"y\\z\n\u{01}é")
        json.add("n", nil as Int?)
        json.add("t", true)
        json.addRaw("arr", json: JSONLine.array(["1", "2"]))
        #expect(json.string == #"{"b":1,"a":"x\"y\\z\n\u0001é","n":null,"t":true,"arr":[1,2]}"#)
    }

    @Test(arguments: [
        (1.5, 3, "1.5"), (-0.0001, 3, "0"), (-0.0005, 3, "-0.001"), (2.0, 6, "2"),
        (12.3456789, 7, "12.3456789"), (0.1 + 0.2, 6, "0.3"), (-47.25, 1, "-47.3"),
    ])
    func formatsFixedDecimals(value: Double, decimals: Int, expected: String) {
        #expect(JSONLine.formatFixed(value, decimals: decimals) == expected)
    }

    @Test func nonFiniteIsNull() {
        var json = JSONLine()
        json.add("x", Double.nan)
        #expect(json.string == #"{"x":null}"#)
    }
}
