import FairFuelParsers
import Foundation
import Testing
import TestSupport

/// Latitude and longitude are parsed as integers and scaled once, so they stay
/// within 1e-7 degrees of the exact decimal value (in fact within a few ulps).
@Suite struct NMEACoordinateTests {
    @Test(arguments: [
        ("0000.0000", "N", 0.0), ("9000.0000", "S", -90.0), ("4807.038", "N", 48.1173),
        ("0030.0000", "S", -0.5), ("1.5", "N", 0.025),
    ])
    func latitudes(text: String, hemisphere: String, degrees: Double) throws {
        let gll = try #require(NMEAParser().parse(nmea("GPGLL,\(text),\(hemisphere),00000.000,E,000000,A")).gll)
        #expect(nearlyEqual(gll.latitude, degrees, 1e-12), "\(text)")
    }

    @Test func longitudeLimits() throws {
        #expect(try NMEAParser().parse(nmea("GPGLL,0000.000,N,18000.000,W,000000,A")).gll?.longitude == -180)
        #expect(decodeResult(nmea("GPGLL,0000.000,N,18000.001,W,000000,A")) == .failure(.badField(.gll, field: 3)))
        #expect(decodeResult(nmea("GPGLL,9000.001,N,00000.000,W,000000,A")) == .failure(.badField(.gll, field: 1)))
    }

    /// Random coordinates with up to 10 decimals of minutes, against exact decimal arithmetic.
    @Test func noDriftAgainstDecimalArithmetic() throws {
        var generator = SeededGenerator(seed: 42)
        let parser = NMEAParser()
        var worst = 0.0
        for _ in 0..<20_000 {
            let degrees = Int(generator.next() % 180)
            let minutes = Int(generator.next() % 60)
            let decimals = Int(generator.next() % 11)
            var fraction = ""
            for _ in 0..<decimals { fraction += String(generator.next() % 10) }
            let text = String(format: "%03d%02d", degrees, minutes) + (decimals > 0 ? "." + fraction : "")
            let parsed = try #require(parser.parse(nmea("GPGLL,0000.0,N,\(text),E,000000,A")).gll?.longitude)
            let minutesExact = Decimal(string: String(minutes) + (decimals > 0 ? "." + fraction : ""))!
            let exact = Decimal(degrees) + minutesExact / 60
            let error = abs(parsed - NSDecimalNumber(decimal: exact).doubleValue)
            worst = max(worst, error)
        }
        #expect(worst < 1e-12, "worst error \(worst) degrees")
    }
}
