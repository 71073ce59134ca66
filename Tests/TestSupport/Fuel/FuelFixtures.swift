import FairFuelCore
import FairFuelDomain
import Foundation

/// The fuel fixtures: standard cycles and the trimmed EPA Test Car List (see their PROVENANCE.md).
///
/// They live in `Tests/FairFuelDomainTests/Fixtures/fuel` and are read from the source tree, so
/// that every test target (the domain's fuel tests, the month replays' car study) reads the same files.
public enum FuelFixtures {
    public enum LoadError: Error, CustomStringConvertible {
        case missing(String)
        case malformed(file: String, line: Int, reason: String)

        public var description: String {
            switch self {
            case let .missing(path): "missing fixture \(path)"
            case let .malformed(file, line, reason): "\(file):\(line): \(reason)"
            }
        }
    }

    public static var directory: URL {
        URL(fileURLWithPath: PackagePaths.root).appendingPathComponent("Tests/FairFuelDomainTests/Fixtures/fuel")
    }

    /// Lines of a fixture, without a byte order mark, `#` comments or blank lines.
    public static func lines(_ relativePath: String) throws -> [Substring] {
        let url = directory.appendingPathComponent(relativePath)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { throw LoadError.missing(relativePath) }
        let body = text.hasPrefix("\u{FEFF}") ? Substring(text.dropFirst()) : Substring(text)
        return body.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") && !$0.allSatisfy(\.isWhitespace) }
    }

    /// A standard cycle's speeds, one per second from 0 s.
    public static func cycle(_ name: String) throws -> [Double] {
        let file = "standard_cycles/\(name).csv"
        let rows = try lines(file)
        guard rows.first?.hasPrefix("cycSecs,cycMps") == true else {
            throw LoadError.malformed(file: file, line: 1, reason: "unexpected header")
        }
        var speeds: [Double] = []
        for (index, row) in rows.dropFirst().enumerated() {
            let fields = row.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= 2, let seconds = Double(fields[0]), let speed = Double(fields[1]),
                seconds == Double(index)
            else { throw LoadError.malformed(file: file, line: index + 2, reason: "expected second \(index)") }
            speeds.append(speed)
        }
        return speeds
    }

    /// Distances of the UDDS's first 505 s (FTP bags 1 and 3) and the rest (bag 2), metres.
    public static func bagMeters(udds: [Double]) -> (first: Double, second: Double) {
        func meters(_ range: Range<Int>) -> Double {
            range.dropFirst().reduce(0) { $0 + (udds[$1] + udds[$1 - 1]) / 2 }
        }
        return (meters(0..<506), meters(505..<udds.count))
    }

    /// One test vehicle with its measured consumption per cycle, litres per 100 km.
    public struct EPAVehicle: Sendable {
        public var key: String
        public var name: String
        public var displacementLiters: Double
        public var testWeightKilograms: Double
        public var roadLoad: RoadLoad
        /// FTP composite (weighted cold and hot UDDS), as rated.
        public var cityComposite: Double
        /// Hot UDDS: FTP bags 3 and 2 (no cold start).
        public var cityHot: Double
        public var highway: Double
        public var aggressive: Double
    }

    public static func lp100(mpg: Double) -> Double { 235.214_583 / mpg }

    /// The paired vehicles; several tests of one cycle are averaged in L/100 km.
    ///
    /// `bagMeters` are the distances of FTP bag 1 (= bag 3) and bag 2 on the UDDS trace,
    /// which weight bags 3 and 2 into a hot UDDS. Vehicles without FTP bag results are left out.
    public static func epaVehicles(bagMeters: (first: Double, second: Double)) throws -> [EPAVehicle] {
        let file = "epa_test_car_list/epa_2022_gasoline_paired.csv"
        let rows = try lines(file)
        let header = rows.first?.split(separator: ",").map(String.init) ?? []
        let expected = [
            "vehicle", "configuration", "make", "model", "displacement_l", "test_weight_lb", "coef_a_lbf",
            "coef_b_lbf_per_mph", "coef_c_lbf_per_mph2", "category", "mpg", "bag1_mpg", "bag2_mpg", "bag3_mpg",
        ]
        guard header == expected else { throw LoadError.malformed(file: file, line: 2, reason: "unexpected header") }

        struct Tests {
            var first: [Substring]
            var city: [Double] = []
            var hot: [Double] = []
            var highway: [Double] = []
            var aggressive: [Double] = []
        }
        var order: [String] = []
        var byKey: [String: Tests] = [:]
        for (index, row) in rows.dropFirst().enumerated() {
            let f = row.split(separator: ",", omittingEmptySubsequences: false)
            guard f.count == expected.count, let mpg = Double(f[10]), mpg > 0 else {
                throw LoadError.malformed(file: file, line: index + 3, reason: "bad row")
            }
            let key = "\(f[0])#\(f[1])"
            if byKey[key] == nil {
                order.append(key)
                byKey[key] = Tests(first: f)
            }
            switch f[9] {
            case "FTP":
                byKey[key]!.city.append(lp100(mpg: mpg))
                if let bag2 = Double(f[12]), let bag3 = Double(f[13]), bag2 > 0, bag3 > 0 {
                    let (d3, d2) = bagMeters
                    byKey[key]!.hot.append((d3 * lp100(mpg: bag3) + d2 * lp100(mpg: bag2)) / (d3 + d2))
                }
            case "HWY": byKey[key]!.highway.append(lp100(mpg: mpg))
            case "US06": byKey[key]!.aggressive.append(lp100(mpg: mpg))
            default: throw LoadError.malformed(file: file, line: index + 3, reason: "unknown category \(f[9])")
            }
        }
        func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }
        return try order.compactMap { key -> EPAVehicle? in
            let tests = byKey[key]!
            guard !tests.hot.isEmpty else { return nil }
            let f = tests.first
            guard let displacement = Double(f[4]), let weight = Double(f[5]), let a = Double(f[6]), let b = Double(f[7]),
                let c = Double(f[8]), !tests.highway.isEmpty, !tests.aggressive.isEmpty
            else { throw LoadError.malformed(file: file, line: 0, reason: "vehicle \(key) incomplete") }
            return EPAVehicle(
                key: key, name: "\(f[2]) \(f[3])", displacementLiters: displacement,
                testWeightKilograms: weight * 0.453_592_37,
                roadLoad: RoadLoad(poundsForce: a, poundsForcePerMph: b, poundsForcePerMphSquared: c),
                cityComposite: mean(tests.city), cityHot: mean(tests.hot), highway: mean(tests.highway),
                aggressive: mean(tests.aggressive))
        }
    }
}
