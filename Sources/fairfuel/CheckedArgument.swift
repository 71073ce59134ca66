import ArgumentParser
import FairFuelConfiguration
import FairFuelService

/// ArgumentParser transforms over `ArgumentValidation`, so that a command adopts a rule by its
/// declaration alone: `@Option(parsing: .unconditional, transform: CheckedArgument.liters) var liters: Double?`.
/// `.unconditional` lets `--liters -5` reach the range check instead of "missing value".
enum CheckedArgument {
    /// ArgumentParser prints "The value 'X' is invalid for '--liters <liters>': " before this.
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs a rule, handing its problem to ArgumentParser.
    static func checked<T>(_ rule: () throws(ArgumentValidationError) -> T) throws -> T {
        do { return try rule() } catch { throw Problem(description: error.problem) }
    }

    static func decimal(_ limits: ArgumentValidation.Limits, _ argument: String) -> @Sendable (String) throws -> Double {
        { text in
            return try checked { () throws(ArgumentValidationError) in try ArgumentValidation.decimal(text, argument: argument, limits: limits) }
        }
    }

    static let liters = decimal(ArgumentValidation.liters, "--liters")
    static let gallons = decimal(ArgumentValidation.gallons, "--gallons")
    static let odometerKilometers = decimal(ArgumentValidation.odometerKilometers, "--odometer-km")
    static let odometerMiles = decimal(ArgumentValidation.odometerMiles, "--odometer-mi")
    static let simulatedSeconds = decimal(ArgumentValidation.simulatedSeconds, "--seconds")
    static let simulationSpeed = decimal(ArgumentValidation.simulationSpeed, "--speed")

    /// A cost's text, checked as a decimal within the allowed bill (parsed to minor units later, with the currency).
    static let cost: @Sendable (String) throws -> String = { text in
        _ = try checked { () throws(ArgumentValidationError) in try ArgumentValidation.decimal(text, argument: "--cost", limits: ArgumentValidation.cost) }
        return text
    }

    /// An ISO 8601 date-time between 2000 and 2100, kept as text (commands parse it as before).
    static let date: @Sendable (String) throws -> String = { text in
        _ = try checked { () throws(ArgumentValidationError) in try ArgumentValidation.date(text, argument: "date") }
        return text
    }

    static let name: @Sendable (String) throws -> String = { text in
        return try checked { () throws(ArgumentValidationError) in try ArgumentValidation.name(text, argument: "name") }
    }

    static let text: @Sendable (String) throws -> String = { text in
        return try checked { () throws(ArgumentValidationError) in try ArgumentValidation.text(text, argument: "text") }
    }
}
