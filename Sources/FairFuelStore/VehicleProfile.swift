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
    /// `metric` or `imperial`.
    public var units: String
    public var untrackedPolicy: UntrackedPolicy
    /// The refuel-calibrated scale of the fuel model.
    public var fuelScale: Double
}

extension TripStore {
    public func vehicle() throws(StoreError) -> VehicleProfile {
        let rows = try wrap { () throws(SQLiteError) in
            try connection.query(
                """
                SELECT name, rated_l_per_100km, mass_kg, idle_l_per_h, fuel_type, tank_l, currency,
                       currency_minor_digits, units, untracked_policy, fuel_scale FROM vehicle WHERE id = 1
                """
            ) { row in
                VehicleProfile(
                    name: row.text(0) ?? "", ratedLitersPer100km: row.double(1), massKilograms: row.double(2),
                    idleLitersPerHour: row.double(3), fuelType: row.text(4) ?? "petrol", tankLiters: row.double(5),
                    currency: row.text(6) ?? "EUR", currencyMinorDigits: row.int(7), units: row.text(8) ?? "metric",
                    untrackedPolicy: UntrackedPolicy(rawValue: row.text(9) ?? "owner") ?? .owner,
                    fuelScale: row.double(10))
            }
        }
        guard let vehicle = rows.first else { throw .notFound("the store has no vehicle row") }
        return vehicle
    }

    public func setVehicle(_ vehicle: VehicleProfile) throws(StoreError) {
        try write {
            try connection.run(
                """
                UPDATE vehicle SET name = ?, rated_l_per_100km = ?, mass_kg = ?, idle_l_per_h = ?, fuel_type = ?,
                    tank_l = ?, currency = ?, currency_minor_digits = ?, units = ?, untracked_policy = ?, fuel_scale = ?
                WHERE id = 1
                """,
                .text(vehicle.name), .real(vehicle.ratedLitersPer100km), .real(vehicle.massKilograms),
                .real(vehicle.idleLitersPerHour), .text(vehicle.fuelType), .real(vehicle.tankLiters),
                .text(vehicle.currency), .int(vehicle.currencyMinorDigits), .text(vehicle.units),
                .text(vehicle.untrackedPolicy.rawValue), .real(vehicle.fuelScale))
        }
    }
}
