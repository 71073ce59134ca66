import FairFuelConfiguration
import Foundation
import Testing
import TestSupport

/// Random input through the one validation layer: nothing crashes, and what is accepted keeps
/// its promises (a finite decimal in range written without hex or exponent; a name of 1 to 64
/// characters with no control or invisible formatting character).
@Suite struct ArgumentValidationFuzzTests {
    static let cases = Int(ProcessInfo.processInfo.environment["FAIRFUEL_FUZZ_CASES"] ?? "") ?? 100_000

    static let pieces: [String] = [
        "0", "1", "9", "5", ".", "-", "+", "e", "E", "x", "0x", "inf", "nan", "_", ",", " ", "\n", "\t", "\u{0}",
        "\u{202E}", "\u{200B}", "\u{200D}", "\u{FEFF}", "\u{2028}", "é", "👩", "‍", "Ö", "Ω", "ـ", "1e-320", "1e400", "99999999999",
        "2026-11-20", "T", "08:00", "Z", "+01:00", "1999", "2101", "a", "Zoë",
    ]

    static func random(_ generator: inout SeededGenerator) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...8, using: &generator) { text += pieces.randomElement(using: &generator)! }
        return text
    }

    @Test func randomTextNeverCrashesAndWhatPassesIsSound() {
        var generator = SeededGenerator(seed: 15)
        var accepted = (decimal: 0, name: 0, date: 0)
        for _ in 0..<Self.cases {
            let text = Self.random(&generator)
            if let value = try? ArgumentValidation.decimal(text, argument: "--liters", limits: ArgumentValidation.liters) {
                accepted.decimal += 1
                #expect(value.isFinite && ArgumentValidation.liters.range.contains(value), "\(text)")
                #expect(text.allSatisfy { "0123456789.+-".contains($0) }, "\(text)")
            }
            if let name = try? ArgumentValidation.name(text, argument: "NAME") {
                accepted.name += 1
                #expect((1...64).contains(name.count))
                #expect(!name.unicodeScalars.contains { [.control, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory) })
                #expect(!name.unicodeScalars.contains { $0.properties.generalCategory == .format && $0.value != 0x200D })
            }
            if let ms = try? ArgumentValidation.date(text, argument: "--at") {
                accepted.date += 1
                #expect(ms >= 946_684_800_000 && ms < 4_133_980_800_000, "\(text)")
            }
        }
        print("validation fuzz: \(Self.cases) random inputs; accepted \(accepted.decimal) decimals, \(accepted.name) names, \(accepted.date) dates")
        #expect(accepted.decimal > 0 && accepted.name > 0)
    }
}
