import FairFuelStore
import Testing

/// What a litre of fuel can cost per currency (`VehicleProfile.currencies`): wide enough for every
/// pump price paid in it, narrow enough that a digit short or too many is outside.
@Suite struct PumpPriceRangeTests {
    /// Pump prices per litre in late 2025 (major units), the cheapest and dearest the table must take:
    /// subsidised fuel, LPG, and the dearest markets.
    static let paid: [(currency: String, perLiter: Double)] = [
        ("EUR", 1.75), ("EUR", 0.85), ("USD", 0.82), ("GBP", 1.38), ("CHF", 1.80), ("NOK", 22.0), ("DKK", 14.0),
        ("JPY", 175), ("KRW", 1_650), ("HUF", 600), ("HUF", 350), ("CZK", 37), ("PLN", 6.0), ("PLN", 3.0),
        ("INR", 103), ("IDR", 10_000), ("MYR", 1.99), ("KWD", 0.085), ("HKD", 31), ("SGD", 2.9), ("TRY", 55),
        ("UAH", 60), ("VND", 20_000), ("ISK", 320), ("CLP", 1_300), ("BRL", 6.3), ("ZAR", 22), ("AUD", 1.9), ("MXN", 24),
    ]

    @Test func everyPumpPriceIsInsideAndATenfoldSlipIsNot() throws {
        for (currency, price) in Self.paid {
            let range = try #require(VehicleProfile.pumpPricePerLiter(ofCurrency: currency), "\(currency)")
            #expect(range.contains(price), "\(currency) \(price) outside \(range)")
        }
        for entry in VehicleProfile.currencies {
            let range = entry.pumpPricePerLiter
            // 0.20 to 5.00 USD, rounded outwards: a factor of 25, a little more after rounding.
            let width = range.upperBound / range.lowerBound
            #expect(width > 24.9 && width < 32, "\(entry.code): \(range)")
            // The lowest price is a whole number of minor units or more, so a price can fall below it.
            var minor = range.lowerBound
            for _ in 0..<entry.minorDigits { minor *= 10 }
            #expect(minor >= 1, "\(entry.code): \(range)")
        }
        #expect(VehicleProfile.pumpPricePerLiter(ofCurrency: "eur") == VehicleProfile.pumpPricePerLiter(ofCurrency: "EUR"))
        #expect(VehicleProfile.pumpPricePerLiter(ofCurrency: "XXX") == nil)
    }
}
