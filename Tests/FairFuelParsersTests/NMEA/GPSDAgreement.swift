import FairFuelParsers
import Foundation

/// Compares FairFuel's fixes with gpsd's TPV reports of the same log.
///
/// gpsd reports a TPV after several sentences of an epoch, each more complete;
/// the last TPV with a given `time` is its verdict for that epoch. TPVs without
/// `time` (before gpsd knows the date) are counted but not compared.
struct GPSDAgreement: CustomStringConvertible {
    struct TPV {
        var time: String
        var lat: Double?
        var lon: Double?
        var speed: Double?
        var mode: Int
    }

    var log: String
    /// Distinct TPV times in gpsd's output.
    var epochs = 0
    /// Epochs where time, lat, lon, speed and mode all agree.
    var matched = 0
    /// gpsd epochs without a FairFuel fix of that time.
    var missing = 0
    var modeDiffers = 0
    var latDiffers = 0
    var lonDiffers = 0
    var speedDiffers = 0
    /// FairFuel fixes with a time gpsd never reported.
    var extra = 0
    /// gpsd TPVs without time.
    var untimed = 0
    /// Epochs matched only after taking back gpsd's 1024-week rollover shift.
    var rolledOver = 0
    /// Disagreeing epochs, for investigation: time, gpsd's and FairFuel's values.
    var examples: [String] = []

    /// The strict comparison (AGREEMENT.md): gpsd prints 9 decimals of degrees and 3 of m/s.
    static let degreeTolerance = 1e-7
    static let speedTolerance = 0.0015
    /// The issue's comparison (#14): 1e-6 degree (11 cm), 0.01 m/s.
    static let looseDegreeTolerance = 1e-6
    static let looseSpeedTolerance = 0.01

    var ratio: Double { epochs == 0 ? 1 : Double(matched) / Double(epochs) }

    init(
        log: String, chk: Data, fixes: [GNSSFix], degreeTolerance: Double = GPSDAgreement.degreeTolerance,
        speedTolerance: Double = GPSDAgreement.speedTolerance
    ) {
        self.log = log
        var order: [String] = []
        var last: [String: TPV] = [:]
        for line in chk.split(separator: 0x0A) where line.starts(with: Array(#"{"class":"TPV""#.utf8)) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
                continue
            }
            guard let time = object["time"] as? String else {
                untimed += 1
                continue
            }
            let tpv = TPV(
                time: time, lat: object["lat"] as? Double, lon: object["lon"] as? Double,
                speed: object["speed"] as? Double, mode: object["mode"] as? Int ?? 0)
            if last[time] == nil { order.append(time) }
            last[time] = tpv
        }
        var ours: [Int64: GNSSFix] = [:]
        for fix in fixes {
            if let utc = fix.utc { ours[utc.millisecondsSinceEpoch] = fix }
        }
        epochs = order.count
        var seen = Set<Int64>()
        for time in order {
            let theirs = last[time]!
            let milliseconds = GPSDAgreement.milliseconds(time)
            var found = ours[milliseconds]
            if found == nil, let shifted = ours[milliseconds - GPSDAgreement.rolloverMilliseconds] {
                found = shifted
                rolledOver += 1
                seen.insert(milliseconds - GPSDAgreement.rolloverMilliseconds)
            } else {
                seen.insert(milliseconds)
            }
            guard let fix = found else {
                missing += 1
                if examples.count < 6 { examples.append("\(time) missing; gpsd mode \(theirs.mode)") }
                continue
            }
            var same = true
            if Int(fix.mode.rawValue) != theirs.mode {
                modeDiffers += 1
                same = false
            }
            if !GPSDAgreement.close(fix.latitude, theirs.lat, degreeTolerance) {
                latDiffers += 1
                same = false
            }
            if !GPSDAgreement.close(fix.longitude, theirs.lon, degreeTolerance) {
                lonDiffers += 1
                same = false
            }
            if !GPSDAgreement.close(fix.speed?.value, theirs.speed, speedTolerance) {
                speedDiffers += 1
                same = false
            }
            if same {
                matched += 1
            } else if examples.count < 6 {
                examples.append(
                    "\(time) gpsd mode \(theirs.mode) \(theirs.lat.map { "\($0)" } ?? "-") "
                        + "\(theirs.lon.map { "\($0)" } ?? "-") v \(theirs.speed.map { "\($0)" } ?? "-")"
                        + " | ours mode \(fix.mode.rawValue) \(fix.latitude.map { "\($0)" } ?? "-") "
                        + "\(fix.longitude.map { "\($0)" } ?? "-") v \(fix.speed.map { "\($0.value)" } ?? "-")")
            }
        }
        extra = ours.keys.filter { !seen.contains($0) }.count
    }

    /// gpsd moves dates it finds too old by one GPS week rollover (1024 weeks).
    static let rolloverMilliseconds: Int64 = 1024 * 7 * 86_400_000

    /// Milliseconds since 1970 of gpsd's `2007-12-23T19:32:21.000Z`.
    static func milliseconds(_ iso: String) -> Int64 {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let date = formatter.date(from: iso)!
        return Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    static func close(_ a: Double?, _ b: Double?, _ tolerance: Double) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case let (a?, b?): abs(a - b) <= tolerance
        default: false
        }
    }

    /// Sums over several logs.
    struct Tally: CustomStringConvertible {
        var epochs = 0
        var matched = 0
        var missing = 0
        var modeDiffers = 0
        var latDiffers = 0
        var lonDiffers = 0
        var speedDiffers = 0
        var extra = 0
        var rolledOver = 0

        var ratio: Double { epochs == 0 ? 1 : Double(matched) / Double(epochs) }

        mutating func add(_ other: Tally) {
            epochs += other.epochs
            matched += other.matched
            missing += other.missing
            modeDiffers += other.modeDiffers
            latDiffers += other.latDiffers
            lonDiffers += other.lonDiffers
            speedDiffers += other.speedDiffers
            extra += other.extra
            rolledOver += other.rolledOver
        }

        mutating func add(_ log: GPSDAgreement) {
            epochs += log.epochs
            matched += log.matched
            missing += log.missing
            modeDiffers += log.modeDiffers
            latDiffers += log.latDiffers
            lonDiffers += log.lonDiffers
            speedDiffers += log.speedDiffers
            extra += log.extra
            rolledOver += log.rolledOver
        }

        var description: String {
            "\(matched)/\(epochs) " + String(format: "%.1f%%", ratio * 100)
                + " missing \(missing) mode \(modeDiffers) lat \(latDiffers) lon \(lonDiffers)"
                + " speed \(speedDiffers) extra \(extra) rollover \(rolledOver)"
        }
    }

    var description: String {
        let percent = String(format: "%5.1f%%", ratio * 100)
        return "\(log.padding(toLength: 44, withPad: " ", startingAt: 0)) \(matched)/\(epochs) \(percent)"
            + " missing \(missing) mode \(modeDiffers) lat \(latDiffers) lon \(lonDiffers)"
            + " speed \(speedDiffers) extra \(extra) untimed \(untimed) rollover \(rolledOver)"
    }
}
