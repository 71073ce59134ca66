import FairFuelCore
import FairFuelParsers

/// How the family reads quantities: kilometres or miles, litres, US or imperial (UK) gallons, and
/// the currency's minor units. Every human-facing number of the CLI, CSV and HTML goes through
/// here; JSON keeps SI field names (`distance_km`, `fuel_l`, `cost_cents`) as a stable contract.
public struct DisplayUnits: Sendable, Equatable {
    /// `metric`: km, litres, L/100 km. `imperial`: miles, US gallons, US mpg. `uk`: miles,
    /// imperial gallons, UK mpg (a UK gallon is 20 % more than a US one, and so is its mpg).
    public enum System: String, Sendable, CaseIterable { case metric, imperial, uk }

    public var system: System
    /// ISO 4217 code.
    public var currency: String
    public var currencyMinorDigits: Int
    /// The family's time zone: every time shown (tables, reports, file names) is on its wall
    /// clock, and months are its calendar months. JSON and CSV keep UTC instants.
    public var timeZone: TimeZoneRules = .utc

    public static let metersPerMile = 1_609.344
    public static let litersPerUSGallon = 3.785_411_784
    public static let litersPerImperialGallon = 4.546_09

    /// Litres in the system's gallon; nil for metric.
    public var litersPerGallon: Double? {
        switch system {
        case .metric: nil
        case .imperial: Self.litersPerUSGallon
        case .uk: Self.litersPerImperialGallon
        }
    }

    public init(system: System, currency: String, currencyMinorDigits: Int) {
        self.system = system
        self.currency = currency
        self.currencyMinorDigits = currencyMinorDigits
    }

    /// `units` as the vehicle profile stores it (`metric`, `imperial` or `uk`; anything else is metric).
    public init(units: String, currency: String, currencyMinorDigits: Int) {
        self.init(system: System(rawValue: units) ?? .metric, currency: currency, currencyMinorDigits: currencyMinorDigits)
    }

    public var distanceUnit: String { system == .metric ? "km" : "mi" }
    public var volumeUnit: String {
        switch system {
        case .metric: "L"
        case .imperial: "gal"
        case .uk: "gal (UK)"
        }
    }
    public var speedUnit: String { system == .metric ? "km/h" : "mph" }
    /// L/100 km, or miles per US or UK gallon (where more is better).
    public var consumptionUnit: String {
        switch system {
        case .metric: "L/100 km"
        case .imperial: "mpg"
        case .uk: "mpg (UK)"
        }
    }
    /// Distance for "per 100 <unit>" rates.
    public var rateDistance: String { system == .metric ? "100 km" : "100 mi" }

    public func distance(meters: Double) -> Double {
        system == .metric ? meters / 1000 : meters / Self.metersPerMile
    }

    public func volume(liters: Double) -> Double {
        litersPerGallon.map { liters / $0 } ?? liters
    }

    public func speed(metersPerSecond: Double) -> Double {
        system == .metric ? metersPerSecond * 3.6 : metersPerSecond * 3_600 / Self.metersPerMile
    }

    /// L/100 km as the family reads consumption; nil for a consumption of zero in mpg.
    public func consumption(litersPer100km: Double) -> Double? {
        guard let litersPerGallon else { return litersPer100km }
        guard litersPer100km > 0 else { return nil }
        return 100 * litersPerGallon / (litersPer100km * Self.metersPerMile / 1000)
    }

    /// A count per 100 km as a count per 100 of the display distance.
    public func per100(perHundredKilometers: Double) -> Double {
        system == .metric ? perHundredKilometers : perHundredKilometers * Self.metersPerMile / 1000
    }

    /// Meters in a distance the user typed in display units (e.g. an odometer reading).
    public func meters(distance: Double) -> Double {
        system == .metric ? distance * 1000 : distance * Self.metersPerMile
    }

    /// Litres in a volume the user typed in display units.
    public func liters(volume: Double) -> Double {
        litersPerGallon.map { volume * $0 } ?? volume
    }

    /// Litres in gallons: imperial gallons for a `uk` vehicle, US gallons otherwise (a metric one too).
    public func liters(gallons: Double) -> Double {
        gallons * (litersPerGallon ?? Self.litersPerUSGallon)
    }

    // MARK: Text

    /// `12.35 km` / `7.67 mi`.
    public func distanceText(meters: Double, decimals: Int = 1) -> String {
        Self.fixed(distance(meters: meters), decimals) + " " + distanceUnit
    }

    /// `6.20 L` / `1.64 gal` / `1.36 gal (UK)`.
    public func volumeText(liters: Double, decimals: Int = 2) -> String {
        Self.fixed(volume(liters: liters), decimals) + " " + volumeUnit
    }

    /// `6.4 L/100 km` / `36.8 mpg` / `44.1 mpg (UK)`; `-` when unknown.
    public func consumptionText(litersPer100km: Double?) -> String {
        guard let litersPer100km, let value = consumption(litersPer100km: litersPer100km) else { return "-" }
        return Self.fixed(value, 1) + " " + consumptionUnit
    }

    /// `64.90` in the currency's minor digits.
    public func moneyText(_ amount: MinorUnits) -> String {
        MoneyText.format(amount, minorDigits: currencyMinorDigits)
    }

    /// `64.90 EUR`.
    public func moneyWithCurrency(_ amount: MinorUnits) -> String {
        moneyText(amount) + " " + currency
    }

    /// `1 h 05 min`, `12 min`.
    public static func durationText(milliseconds: Int64) -> String {
        let minutes = max(0, milliseconds) / 60_000
        guard minutes >= 60 else { return "\(minutes) min" }
        let rest = minutes % 60
        return "\(minutes / 60) h \(rest < 10 ? "0" : "")\(rest) min"
    }

    /// `2026-11-20 08:00` (UTC, to the minute).
    public static func minuteText(utcMs: Int64) -> String { ISO8601.dateMinute(utcMs: utcMs) }

    /// `2026-11-20 08:00` on the family's wall clock.
    public func minuteText(utcMs: Int64) -> String { ISO8601.dateMinute(utcMs: utcMs, in: timeZone) }

    /// `2026-11-20` on the family's calendar.
    public func dateText(utcMs: Int64) -> String { Self.dateText(utcMs: timeZone.localMs(utcMs: utcMs)) }

    /// What a time column's header names: `UTC`, or `local` for the family's zone.
    public var timeLabel: String { timeZone.name == TimeZoneRules.utc.name ? "UTC" : "local" }

    /// `Europe/Berlin (CET, UTC+01:00 now)`, the abbreviation and offset in force at `utcMs`; `UTC` for UTC.
    public static func zoneText(_ zone: TimeZoneRules, atUTCMs utcMs: Int64) -> String {
        guard zone.name != TimeZoneRules.utc.name else { return "UTC" }
        let offset = zone.offsetSeconds(atUTCMs: utcMs)
        let minutes = abs(offset) / 60
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return zone.name + " (" + zone.abbreviation(atUTCMs: utcMs) + ", UTC" + (offset < 0 ? "-" : "+")
            + twoDigits(minutes / 60) + ":" + twoDigits(minutes % 60) + " now)"
    }

    /// The zone in a sentence: `UTC`, or `Europe/Berlin time`.
    public var timeZoneText: String { timeZone.name == TimeZoneRules.utc.name ? "UTC" : timeZone.name + " time" }

    /// `2026-11-20` (UTC).
    public static func dateText(utcMs: Int64) -> String {
        var text = ""
        ISO8601.appendDate(UTCTimestamp(millisecondsSinceEpoch: utcMs).date, to: &text)
        return text
    }

    /// A number rounded half away from zero to `decimals` places, keeping trailing zeros.
    public static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "-" }
        var text = JSONLine.formatFixed(value, decimals: decimals)
        guard decimals > 0 else { return text }
        if !text.contains(".") { text += "." }
        let have = text.split(separator: ".", omittingEmptySubsequences: false).last?.count ?? 0
        return text + String(repeating: "0", count: max(0, decimals - have))
    }
}
