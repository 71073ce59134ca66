import FairFuelCore
import FairFuelDomain
import Foundation

/// The fuel fixtures: standard cycles and the trimmed EPA Test Car List (see their PROVENANCE.md).
enum FuelFixtures {
    enum LoadError: Error, CustomStringConvertible {
        case missing(String)
        case malformed(file: String, line: Int, reason: String)

        var description: String {
            switch self {
            case let .missing(path): "missing fixture \(path)"
            case let .malformed(file, line, reason): "\(file):\(line): \(reason)"
            }
        }
    }

    static var directory: URL {
        get throws {
            guard let url = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
                throw LoadError.missing("Fixtures")
            }
            return url.appendingPathComponent("fuel")
        }
    }

    /// Lines of a fixture, without a byte order mark, `#` comments or blank lines.
    static func lines(_ relativePath: String) throws -> [Substring] {
        let url = try directory.appendingPathComponent(relativePath)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { throw LoadError.missing(relativePath) }
        let body = text.hasPrefix("\u{FEFF}") ? Substring(text.dropFirst()) : Substring(text)
        return body.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") && !$0.allSatisfy(\.isWhitespace) }
    }

    /// A standard cycle's speeds, one per second from 0 s.
    static func cycle(_ name: String) throws -> [Double] {
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

    /// One test vehicle with its measured consumption per cycle, litres per 100 km.
    struct EPAVehicle: Sendable {
        var key: String
        var name: String
        var displacementLiters: Double
        var testWeightKilograms: Double
        var roadLoad: RoadLoad
        /// FTP composite (weighted cold and hot UDDS), as rated.
        var cityComposite: Double
        /// Hot UDDS: FTP bags 3 and 2 (no cold start).
        var cityHot: Double
        var highway: Double
        var aggressive: Double
    }

    static func lp100(mpg: Double) -> Double { 235.214_583 / mpg }

    /// The paired vehicles; several tests of one cycle are averaged in L/100 km.
    ///
    /// `bagMeters` are the distances of FTP bag 1 (= bag 3) and bag 2 on the UDDS trace,
    /// which weight bags 3 and 2 into a hot UDDS. Vehicles without FTP bag results are left out.
    static func epaVehicles(bagMeters: (first: Double, second: Double)) throws -> [EPAVehicle] {
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

/// Drives an estimator over a 1 Hz speed trace.
extension FuelEstimator {
    /// Feeds `speeds` (m/s, one per second from `startMs`), then pauses; returns litres per 100 km.
    @discardableResult
    mutating func drive(_ speeds: [Double], startMs: Int64 = 0, stepMs: Int64 = 1_000) -> Double {
        let litersBefore = modelLiters.value
        let metersBefore = distance.value
        for (index, speed) in speeds.enumerated() {
            add(timeMs: startMs + Int64(index) * stepMs, speed: MetersPerSecond(speed))
        }
        pause()
        return (modelLiters.value - litersBefore) / ((distance.value - metersBefore) / 1_000) * 100
    }
}
