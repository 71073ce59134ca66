import FairFuelCore
import FairFuelReports
import Testing

@Suite struct DisplayUnitsTests {
    @Test func metricIsTheIdentity() {
        let u = ExportSample.metric
        #expect(u.distanceText(meters: 12_345) == "12.3 km")
        #expect(u.volumeText(liters: 6.2) == "6.20 L")
        #expect(u.consumptionText(litersPer100km: 6.45) == "6.5 L/100 km")
        #expect(u.moneyWithCurrency(MinorUnits(6_490)) == "64.90 EUR")
        #expect(u.speed(metersPerSecond: 10) == 36)
    }

    @Test func imperialIsMilesUSGallonsAndMPG() {
        let u = ExportSample.imperial
        #expect(u.distanceText(meters: 1_609.344, decimals: 2) == "1.00 mi")
        #expect(u.volumeText(liters: 3.785_411_784) == "1.00 gal")
        // 6.5 L/100 km is 36.2 US mpg; more fuel, fewer miles per gallon.
        #expect(u.consumptionText(litersPer100km: 6.5) == "36.2 mpg")
        #expect(u.consumption(litersPer100km: 13)! < u.consumption(litersPer100km: 6.5)!)
        #expect(u.consumption(litersPer100km: 0) == nil)
        #expect(abs(u.speed(metersPerSecond: 26.8224) - 60) < 1e-9)
        #expect(abs(u.meters(distance: 2) - 3_218.688) < 1e-9)
        #expect(abs(u.per100(perHundredKilometers: 10) - 16.09344) < 1e-9)
    }

    /// A UK family's gallon is the imperial one (4.546 09 L), 20 % more than the US gallon, and so is its mpg.
    @Test func ukIsMilesImperialGallonsAndUKMPG() {
        let u = DisplayUnits(units: "uk", currency: "GBP", currencyMinorDigits: 2)
        #expect(u.system == .uk)
        #expect(u.distanceText(meters: 1_609.344, decimals: 2) == "1.00 mi")
        #expect(u.volumeText(liters: 4.546_09) == "1.00 gal (UK)")
        #expect(abs(u.liters(volume: 10) - 45.460_9) < 1e-9)
        // 6.5 L/100 km is 43.5 UK mpg (36.2 US mpg).
        #expect(u.consumptionText(litersPer100km: 6.5) == "43.5 mpg (UK)")
        #expect(abs(u.consumption(litersPer100km: 6.5)! / ExportSample.imperial.consumption(litersPer100km: 6.5)! - 4.546_09 / 3.785_411_784) < 1e-12)
        #expect(u.consumption(litersPer100km: 0) == nil)
        #expect(abs(u.speed(metersPerSecond: 26.8224) - 60) < 1e-9)
        #expect(u.speedUnit == "mph" && u.rateDistance == "100 mi")
        // Imperial stays US.
        #expect(ExportSample.imperial.volumeUnit == "gal" && ExportSample.imperial.consumptionUnit == "mpg")
        #expect(DisplayUnits.System.allCases.map(\.rawValue) == ["metric", "imperial", "uk"])
    }

    @Test func currenciesWithoutMinorUnits() {
        let yen = DisplayUnits(units: "metric", currency: "JPY", currencyMinorDigits: 0)
        #expect(yen.moneyWithCurrency(MinorUnits(7_250)) == "7250 JPY")
    }

    @Test func fixedKeepsTrailingZeros() {
        #expect(DisplayUnits.fixed(2, 2) == "2.00")
        #expect(DisplayUnits.fixed(2.005, 2) == "2.01")
        #expect(DisplayUnits.fixed(-0.25, 1) == "-0.3")
        #expect(DisplayUnits.fixed(7, 0) == "7")
        #expect(DisplayUnits.durationText(milliseconds: 65 * 60_000) == "1 h 05 min")
        #expect(DisplayUnits.minuteText(utcMs: ExportSample.t0) == "2026-11-20 08:00")
    }
}
