import FairFuelCore

extension FleetCommand {
    /// Reads a command's fields by name and type, refusing what is missing, of the wrong type or
    /// out of the range the CLI takes (`CheckedArgument`'s: 0.1 to 500 L, 0 to 100 000.00).
    struct FieldReader {
        let json: JSONValue

        static let maximumLiters = 500.0
        static let maximumCostMinorUnits: Int64 = 10_000_000
        static let maximumOdometerKilometers = 10_000_000.0
        static let maximumTextScalars = 200

        private func raw(_ name: String) -> JSONValue? { json[name] }

        /// A required field: its value, or the refusal of a missing one.
        private func present<T>(_ name: String, _ value: T?) throws(FleetCommandError) -> T {
            guard let value else { throw .invalid("\(name) is missing") }
            return value
        }

        func text(_ name: String) throws(FleetCommandError) -> String { try present(name, optionalText(name)) }

        func optionalText(_ name: String) throws(FleetCommandError) -> String? {
            guard let value = raw(name) else { return nil }
            guard let text = value.string else { throw .invalid("\(name) must be a string") }
            guard !text.isEmpty, text.unicodeScalars.count <= Self.maximumTextScalars else {
                throw .invalid("\(name) must be 1 to \(Self.maximumTextScalars) characters")
            }
            guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw .invalid("\(name) contains control characters")
            }
            return text
        }

        func int(_ name: String) throws(FleetCommandError) -> Int64 {
            guard let value = raw(name) else { throw .invalid("\(name) is missing") }
            guard let number = value.int else { throw .invalid("\(name) must be an integer") }
            return number
        }

        func optionalBool(_ name: String) throws(FleetCommandError) -> Bool? {
            guard let value = raw(name) else { return nil }
            guard let flag = value.bool else { throw .invalid("\(name) must be true or false") }
            return flag
        }

        func instant(_ name: String) throws(FleetCommandError) -> Int64 { try present(name, optionalInstant(name)) }

        func optionalInstant(_ name: String) throws(FleetCommandError) -> Int64? {
            guard let value = raw(name) else { return nil }
            guard let text = value.string else { throw .invalid("\(name) must be an ISO 8601 string") }
            do { return try ISO8601.parse(text).millisecondsSinceEpoch } catch {
                throw .invalid("\(name): \(error)")
            }
        }

        func liters(_ name: String) throws(FleetCommandError) -> Double { try present(name, optionalLiters(name)) }

        func optionalLiters(_ name: String) throws(FleetCommandError) -> Double? {
            guard let value = raw(name) else { return nil }
            guard let number = value.double, number.isFinite else { throw .invalid("\(name) must be a number") }
            guard number > 0, number <= Self.maximumLiters else { throw .invalid("\(name) must be more than 0 and at most \(Int(Self.maximumLiters))") }
            return number
        }

        func cost(_ name: String) throws(FleetCommandError) -> Int64 { try present(name, optionalCost(name)) }

        func optionalCost(_ name: String) throws(FleetCommandError) -> Int64? {
            guard let value = raw(name) else { return nil }
            guard let number = value.int else { throw .invalid("\(name) must be an integer of minor units") }
            guard (0...Self.maximumCostMinorUnits).contains(number) else {
                throw .invalid("\(name) must be 0 to \(Self.maximumCostMinorUnits)")
            }
            return number
        }

        func currency(_ name: String) throws(FleetCommandError) -> String { try present(name, optionalCurrency(name)) }

        /// An ISO 4217 code: three capital letters (the store knows which it takes).
        func optionalCurrency(_ name: String) throws(FleetCommandError) -> String? {
            guard let value = raw(name) else { return nil }
            guard let code = value.string, code.utf8.count == 3, code.utf8.allSatisfy({ (65...90).contains($0) }) else {
                throw .invalid("\(name) must be an ISO 4217 code (EUR)")
            }
            return code
        }

        func optionalOdometer(_ name: String) throws(FleetCommandError) -> Double? {
            guard let value = raw(name) else { return nil }
            guard let number = value.double, number.isFinite, number >= 0, number < Self.maximumOdometerKilometers else {
                throw .invalid("\(name) must be a reading from 0 to \(Int(Self.maximumOdometerKilometers)) km")
            }
            return number
        }

        func recordID(_ name: String) throws(FleetCommandError) -> Int64 {
            let id = try int(name)
            guard id > 0 else { throw .invalid("\(name) must be a positive id") }
            return id
        }

        func recordIDList(_ name: String) throws(FleetCommandError) -> [Int64] {
            guard case let .array(items)? = raw(name), !items.isEmpty, items.count <= FleetCommand.maximumItems else {
                throw .invalid("\(name) must be a list of 1 to \(FleetCommand.maximumItems) ids")
            }
            var ids: [Int64] = []
            for item in items {
                guard let id = item.int, id > 0 else { throw .invalid("\(name) must hold positive integer ids") }
                ids.append(id)
            }
            return ids
        }

        func tripList(_ name: String) throws(FleetCommandError) -> [String] {
            guard case let .array(items)? = raw(name), !items.isEmpty, items.count <= FleetCommand.maximumItems else {
                throw .invalid("\(name) must be a list of 1 to \(FleetCommand.maximumItems) trips")
            }
            var trips: [String] = []
            for item in items {
                guard let trip = item.string, Self.isTripText(trip) else { throw .invalid("\(name) must hold trip ids such as \"42\" or \"u7\"") }
                trips.append(trip)
            }
            return trips
        }

        func trip(_ name: String) throws(FleetCommandError) -> String {
            guard let value = raw(name) else { throw .invalid("\(name) is missing") }
            guard let trip = value.string, Self.isTripText(trip) else { throw .invalid("\(name) must be a trip id such as \"42\"") }
            return trip
        }

        /// The shape of a trip id; whether it names a trip is the store's to say.
        private static func isTripText(_ trip: String) -> Bool { !trip.isEmpty && trip.utf8.count <= 24 }
    }
}
