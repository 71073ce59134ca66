import FairFuelCore
import FairFuelDomain
import FairFuelSQLite

/// The vehicle as the family set it up: consumption, mass, fuel, money and units.
public struct VehicleProfile: Sendable, Equatable {
    public var name: String
    public var ratedLitersPer100km: Double
    public var massKilograms: Double
    public var idleLitersPerHour: Double
    public var fuelType: String
    public var tankLiters: Double
    /// ISO 4217 code, e.g. EUR.
    public var currency: String
    /// Digits after the decimal point in the currency (2 for EUR and USD).
    public var currencyMinorDigits: Int
    /// `metric`, `imperial` (miles, US gallons) or `uk` (miles, imperial gallons).
    public var units: String
    public var untrackedPolicy: UntrackedPolicy
    /// The refuel-calibrated scale of the fuel model.
    public var fuelScale: Double
    /// The IANA time zone (`Europe/Berlin`) times are shown in; `UTC` until the family sets one.
    /// The store keeps every instant in UTC whatever this says.
    public var timeZone: String

    public init(
        name: String, ratedLitersPer100km: Double, massKilograms: Double, idleLitersPerHour: Double, fuelType: String,
        tankLiters: Double, currency: String, currencyMinorDigits: Int, units: String, untrackedPolicy: UntrackedPolicy,
        fuelScale: Double, timeZone: String = "UTC"
    ) {
        self.name = name
        self.ratedLitersPer100km = ratedLitersPer100km
        self.massKilograms = massKilograms
        self.idleLitersPerHour = idleLitersPerHour
        self.fuelType = fuelType
        self.tankLiters = tankLiters
        self.currency = currency
        self.currencyMinorDigits = currencyMinorDigits
        self.units = units
        self.untrackedPolicy = untrackedPolicy
        self.fuelScale = fuelScale
        self.timeZone = timeZone
    }
}

extension VehicleProfile {
    /// ISO 4217 codes of the currencies a family is likely to pay fuel in, with their minor-unit
    /// digits and what a litre of fuel can cost in them (major units per litre).
    ///
    /// The price range is 0.20 to 5.00 US dollars a litre at the November 2025 rate, the lower bound
    /// rounded down and the upper one up to two significant digits. Every pump in these currencies'
    /// countries sells inside it, with room for years of inflation (the cheapest: Kuwait's
    /// 0.085 KWD, about 0.28 USD, and Malaysia's subsidised 1.99 MYR; the dearest: Hong Kong's
    /// HK$ 31, about 4 USD). A price outside it is a typo (a missing digit, litres for the cost)
    /// until the family says otherwise (`refuel --force`).
    public static let currencies: [(code: String, minorDigits: Int, pumpPricePerLiter: ClosedRange<Double>)] = [
        ("AUD", 2, 0.3...7.7), ("BGN", 2, 0.33...8.5), ("BRL", 2, 1.0...27.0), ("CAD", 2, 0.28...7.1),
        ("CHF", 2, 0.16...4.0), ("CLP", 0, 180.0...4700.0), ("CNY", 2, 1.4...36.0), ("CZK", 2, 4.1...110.0),
        ("DKK", 2, 1.2...33.0), ("EUR", 2, 0.17...4.4), ("GBP", 2, 0.15...3.8), ("HKD", 2, 1.5...39.0),
        ("HUF", 2, 66.0...1700.0), ("IDR", 2, 3300.0...84000.0), ("ILS", 2, 0.65...17.0), ("INR", 2, 17.0...450.0),
        ("ISK", 0, 25.0...640.0), ("JPY", 0, 31.0...780.0), ("KRW", 0, 290.0...7300.0), ("KWD", 3, 0.061...1.6),
        ("MXN", 2, 3.6...92.0), ("MYR", 2, 0.83...21.0), ("NOK", 2, 2.0...51.0), ("NZD", 2, 0.35...8.9),
        ("PHP", 2, 11.0...300.0), ("PLN", 2, 0.73...19.0), ("RON", 2, 0.88...22.0), ("RSD", 2, 20.0...510.0),
        ("SEK", 2, 1.9...48.0), ("SGD", 2, 0.26...6.5), ("THB", 2, 6.4...170.0), ("TRY", 2, 8.4...220.0),
        ("TWD", 2, 6.2...160.0), ("UAH", 2, 8.3...210.0), ("USD", 2, 0.2...5.0), ("VND", 0, 5200.0...140000.0),
        ("ZAR", 2, 3.4...87.0),
    ]

    /// Minor-unit digits of an ISO 4217 code (any case); nil for a code not in `currencies`.
    public static func minorDigits(ofCurrency code: String) -> Int? {
        let upper = code.uppercased()
        return currencies.first { $0.code == upper }?.minorDigits
    }

    /// What a litre of fuel can cost in a currency (major units, any case); nil for a code not in `currencies`.
    public static func pumpPricePerLiter(ofCurrency code: String) -> ClosedRange<Double>? {
        let upper = code.uppercased()
        return currencies.first { $0.code == upper }?.pumpPricePerLiter
    }

    /// Allowed ranges, as `fairfuel vehicle set` and bundle imports check them.
    public static let ratedLitersPer100kmRange = 1.0...40.0
    public static let massKilogramsRange = 400.0...5000.0
    public static let idleLitersPerHourRange = 0.0...5.0
    public static let tankLitersRange = 5.0...200.0
    /// The mass and idle rate a new store starts with (the schema's defaults: a 1400 kg car with
    /// a 1.6 L petrol engine's idle).
    public static let defaultMassKilograms = 1_400.0
    public static let defaultIdleLitersPerHour = 0.8

    /// Whether the car's mass and idle rate are still a new store's defaults. On the default
    /// profile the split is about twice as far from the truth as with the car told (the car study
    /// in the README), so the CLI says so.
    public var isDefaultCar: Bool {
        massKilograms == Self.defaultMassKilograms && idleLitersPerHour == Self.defaultIdleLitersPerHour
    }

    /// Engine displacements `idleLitersPerHour(engineLiters:)` takes, litres.
    public static let engineLitersRange = 0.5...8.0
    public static let fuelTypes = ["petrol", "diesel", "lpg"]
    public static let unitSystems = ["metric", "imperial", "uk"]
    /// What a unit system outside `unitSystems` breaks.
    public static let unitSystemsRule = "must be metric, imperial (US gallons) or uk (imperial gallons)"
    /// The problem of a unit system outside `unitSystems`, as `vehicle set --units` reports it.
    public static let unitSystemsProblem = "--units " + unitSystemsRule

    /// A rule a profile breaks, with the field as `vehicle set` names it (`--mass-kg`) and as a
    /// provisioning bundle does (`mass_kg`), so that each reports the field the person typed.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        public var option: String
        public var bundleKey: String
        /// `must be 400 to 5000`.
        public var rule: String
        /// The CLI's message: `--mass-kg must be 400 to 5000`.
        public var description: String { option + " " + rule }
    }

    /// What is wrong with this profile, one problem per field.
    public var problems: [Problem] {
        var problems: [Problem] = []
        func check(_ ok: Bool, _ option: String, _ key: String, _ rule: String) {
            if !ok { problems.append(Problem(option: option, bundleKey: key, rule: rule)) }
        }
        check(!name.trimmingWhitespace.isEmpty, "--name", "name", "cannot be empty")
        check(Self.ratedLitersPer100kmRange.contains(ratedLitersPer100km), "--l-per-100km", "l_per_100km", "must be 1 to 40")
        check(Self.massKilogramsRange.contains(massKilograms), "--mass-kg", "mass_kg", "must be 400 to 5000")
        check(Self.idleLitersPerHourRange.contains(idleLitersPerHour), "--idle-l-per-h", "idle_l_per_h", "must be 0 to 5")
        check(Self.tankLitersRange.contains(tankLiters), "--tank-l", "tank_l", "must be 5 to 200")
        check(Self.fuelTypes.contains(fuelType), "--fuel", "fuel", "must be petrol, diesel or lpg")
        check(Self.unitSystems.contains(units), "--units", "units", Self.unitSystemsRule)
        check(Self.minorDigits(ofCurrency: currency) == currencyMinorDigits, "--currency", "currency", Self.currencyRule(currency))
        return problems
    }

    /// The message for a currency code outside the table.
    public static func currencyProblem(_ code: String) -> String { "--currency " + currencyRule(code) }

    /// What a currency code outside the table breaks.
    static func currencyRule(_ code: String) -> String {
        "'\(code)' is not an ISO 4217 code this build knows (\(currencies.map(\.code).joined(separator: " ")))"
    }
}

extension TripStore {
    public func vehicle() throws(StoreError) -> VehicleProfile {
        let rows = try wrap { () throws(SQLiteError) in
            try connection.queryOnce(
                """
                SELECT name, rated_l_per_100km, mass_kg, idle_l_per_h, fuel_type, tank_l, currency,
                       currency_minor_digits, units, untracked_policy, fuel_scale, time_zone FROM vehicle WHERE id = 1
                """
            ) { row in
                VehicleProfile(
                    name: row.text(0) ?? "", ratedLitersPer100km: row.double(1), massKilograms: row.double(2),
                    idleLitersPerHour: row.double(3), fuelType: row.text(4) ?? "petrol", tankLiters: row.double(5),
                    currency: row.text(6) ?? "EUR", currencyMinorDigits: row.int(7), units: row.text(8) ?? "metric",
                    untrackedPolicy: UntrackedPolicy(rawValue: row.text(9) ?? "owner") ?? .owner,
                    fuelScale: row.double(10), timeZone: row.text(11) ?? "UTC")
            }
        }
        guard let vehicle = rows.first else { throw .notFound("the store has no vehicle row") }
        return vehicle
    }

    /// The vehicle's unique id (a random UUID made when the store was created or upgraded): what
    /// `fairfuel family` tells cars apart by, whatever their names.
    public func vehicleUID() throws(StoreError) -> String? {
        try wrap { () throws(SQLiteError) in try connection.scalarText("SELECT uid FROM vehicle WHERE id = 1") }
    }

    public func setVehicle(_ vehicle: VehicleProfile) throws(StoreError) {
        try write { try writeVehicleInTransaction(vehicle) }
    }

    func writeVehicleInTransaction(_ vehicle: VehicleProfile) throws {
        try connection.run(
            """
            UPDATE vehicle SET name = ?, rated_l_per_100km = ?, mass_kg = ?, idle_l_per_h = ?, fuel_type = ?,
                tank_l = ?, currency = ?, currency_minor_digits = ?, units = ?, untracked_policy = ?, fuel_scale = ?,
                time_zone = ?
            WHERE id = 1
            """,
            .text(vehicle.name), .real(vehicle.ratedLitersPer100km), .real(vehicle.massKilograms),
            .real(vehicle.idleLitersPerHour), .text(vehicle.fuelType), .real(vehicle.tankLiters),
            .text(vehicle.currency), .int(vehicle.currencyMinorDigits), .text(vehicle.units),
            .text(vehicle.untrackedPolicy.rawValue), .real(vehicle.fuelScale), .text(vehicle.timeZone))
    }
}

extension VehicleProfile {
    /// The idle rate of an engine of `engineLiters` on this profile's fuel, as the profile stores
    /// it (to 0.01 L/h): the domain's rule (`FuelType.idleLitersPerHour(displacementLiters:)`).
    /// The idle rate is what the fuel model misses most between cars (a 3.6 L V6 idles at more
    /// than twice a 1.6 L's rate), and the displacement is on every registration document.
    public func idleLitersPerHour(engineLiters: Double) -> Double {
        let fuel = FuelType(rawValue: fuelType) ?? .petrol
        return (fuel.idleLitersPerHour(displacementLiters: engineLiters) * 100).rounded() / 100
    }
}
