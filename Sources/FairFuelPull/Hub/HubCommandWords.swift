import FairFuelCore
import FairFuelDomain
import FairFuelStore

/// The words after `fairfuel hub command [options]`, read into a command's operation: the car's
/// own CLI words (`refuel add --liters 40 ...`, `trip assign 42,u7 Anna`), so a family types the
/// same correction at the hub as on the car (and the hub's web app's forms, `HubCommandWords+Form`).
public enum HubCommandWords {
    public struct Problem: Error, Sendable {
        public var message: String
    }

    /// `carCurrency`: the currency of the car's bills as the hub holds them (`HubCarCurrency`), nil when
    /// it holds none; a cost is read in its minor units, or in those of `--currency`, which must agree.
    public static func operation(_ words: [String], carCurrency: String? = nil) throws(Problem) -> FleetCommand.Operation {
        var rest = words[...]
        let verb = [rest.popFirst(), rest.first.flatMap { $0.hasPrefix("-") ? nil : $0 }].compactMap { $0 }
        switch verb.first {
        case "refuel":
            _ = rest.popFirst()
            switch verb.count > 1 ? verb[1] : "" {
            case "add":
                var options = try Options(rest, flags: ["--partial"])
                let currency = try options.currency(car: carCurrency)
                let fields = FleetCommand.RefuelFields(
                    atUTCMs: try options.instant("--at", required: true)!, liters: try options.number("--liters", required: true)!,
                    costMinorUnits: try options.cost("--cost", currency: currency, required: true)!, currency: currency ?? "",
                    fullTank: !options.flag("--partial"),
                    odometerKilometers: try options.number("--odometer-km"), station: options.text("--station"), note: options.text("--note"))
                try options.finish()
                return .refuelAdd(fields)
            case "edit":
                let id = try recordID(rest.popFirst(), "refuel edit ID")
                var options = try Options(rest, flags: ["--partial", "--full"])
                if options.flag("--partial") && options.flag("--full") { throw Problem(message: "--full and --partial are exclusive") }
                let currency = try options.currency(car: carCurrency)
                let cost = try options.cost("--cost", currency: currency)
                let changes = FleetCommand.RefuelChanges(
                    atUTCMs: try options.instant("--at"), liters: try options.number("--liters"), costMinorUnits: cost,
                    currency: cost == nil ? nil : currency, fullTank: options.flag("--full") ? true : options.flag("--partial") ? false : nil,
                    odometerKilometers: try options.number("--odometer-km"))
                try options.finish()
                return .refuelEdit(refuel: id, changes)
            case "remove":
                let id = try recordID(rest.popFirst(), "refuel remove ID")
                try nothingMore(rest)
                return .refuelRemove(refuel: id)
            default:
                throw Problem(message: "say `refuel add`, `refuel edit ID` or `refuel remove ID`")
            }
        case "trip", "trips":
            _ = rest.popFirst()
            switch verb.count > 1 ? verb[1] : "" {
            case "assign":
                guard let trips = rest.popFirst(), let driver = rest.popFirst() else { throw Problem(message: "say `trip assign TRIP[,TRIP...] DRIVER`") }
                try nothingMore(rest)
                return .tripAssign(trips: trips.split(separator: ",").map(String.init), driver: driver)
            case "move":
                guard let trip = rest.popFirst(), let driver = rest.popFirst() else { throw Problem(message: "say `trip move TRIP DRIVER`") }
                try nothingMore(rest)
                guard case .session? = TripReference(trip) else {
                    throw Problem(message: "trip move takes one recorded trip (42); untracked driving (u7) is given with `trip assign`")
                }
                return .tripMove(trip: trip, driver: driver)
            case "delete":
                guard let trip = rest.popFirst() else { throw Problem(message: "say `trip delete TRIP`") }
                try nothingMore(rest)
                return .tripDelete(trip: trip)
            default:
                throw Problem(message: "say `trip assign TRIP[,TRIP...] DRIVER`, `trip move TRIP DRIVER` or `trip delete TRIP`")
            }
        case "baseline":
            _ = rest.popFirst()
            guard verb.count > 1, verb[1] == "mark" else { throw Problem(message: "say `baseline mark [--at ISO8601]`") }
            // A mark has a moment and nothing else, as the CLI's `refuel add --baseline`.
            var options = try Options(rest, flags: [])
            let at = try options.instant("--at")
            try options.finish()
            return .baselineMark(atUTCMs: at)
        case "settle", "unsettle":
            var ids: [Int64] = []
            while let word = rest.popFirst() { ids.append(try recordID(word, "\(verb[0]) ID...")) }
            guard !ids.isEmpty else { throw Problem(message: "say which bills: `\(verb[0]) ID...`") }
            return verb[0] == "settle" ? .settle(refuels: ids) : .unsettle(refuels: ids)
        case "resend":
            var options = try Options(rest, flags: [])
            let since = try options.number("--since", required: true)!
            try options.finish()
            guard since >= 0, since == since.rounded(), since < 9e15 else { throw Problem(message: "--since is an outbox message id (0: everything)") }
            return .resend(sinceMessageID: Int64(since))
        default:
            throw Problem(message: "say a command: refuel add|edit|remove, trip assign|move|delete, baseline mark, settle, unsettle or resend")
        }
    }

    private static func recordID(_ word: String?, _ usage: String) throws(Problem) -> Int64 {
        guard let word, let id = Int64(word), id > 0 else { throw Problem(message: "say `\(usage)` with positive ids") }
        return id
    }

    private static func nothingMore(_ rest: ArraySlice<String>) throws(Problem) {
        if let extra = rest.first { throw Problem(message: "unexpected '\(extra)'") }
    }

    /// `--name value` pairs and bare flags, each used at most once; `finish` refuses what was not asked for.
    private struct Options {
        var values: [String: String] = [:]
        var flags: Set<String> = []

        init(_ words: ArraySlice<String>, flags known: Set<String>) throws(Problem) {
            var rest = words
            while let word = rest.popFirst() {
                guard word.hasPrefix("--") else { throw Problem(message: "unexpected '\(word)'") }
                if known.contains(word) {
                    flags.insert(word)
                    continue
                }
                guard let value = rest.popFirst() else { throw Problem(message: "\(word) needs a value") }
                guard values[word] == nil else { throw Problem(message: "\(word) is given twice") }
                values[word] = value
            }
        }

        mutating func flag(_ name: String) -> Bool { flags.contains(name) }

        mutating func text(_ name: String) -> String? { values.removeValue(forKey: name) }

        mutating func number(_ name: String, required: Bool = false) throws(Problem) -> Double? {
            guard let text = text(name) else {
                if required { throw Problem(message: "\(name) is needed") }
                return nil
            }
            guard let value = Double(text), value.isFinite else { throw Problem(message: "\(name) \(text) is not a number") }
            return value
        }

        mutating func instant(_ name: String, required: Bool = false) throws(Problem) -> Int64? {
            guard let text = text(name) else {
                if required { throw Problem(message: "\(name) is needed") }
                return nil
            }
            do { return try ISO8601.parse(text).millisecondsSinceEpoch } catch {
                throw Problem(message: "\(name): \(error) (give UTC or an offset: 2026-11-25T17:20Z)")
            }
        }

        /// `--currency` when given (a known code, the car's when the hub knows it), else the car's.
        mutating func currency(car: String?) throws(Problem) -> String? {
            guard let given = text("--currency").map({ $0.uppercased() }) else { return car }
            guard VehicleProfile.minorDigits(ofCurrency: given) != nil else { throw Problem(message: VehicleProfile.currencyProblem(given)) }
            if let car, car != given { throw Problem(message: "--currency \(given) is not the car's: its bills at the hub are in \(car)") }
            return given
        }

        /// A cost in `currency`'s minor units (2 digits for EUR, none for JPY, 3 for KWD).
        mutating func cost(_ name: String, currency: String?, required: Bool = false) throws(Problem) -> Int64? {
            guard let text = text(name) else {
                if required { throw Problem(message: "\(name) is needed") }
                return nil
            }
            guard let currency else {
                throw Problem(message: "\(name): say its currency (--currency EUR): the hub holds no bill of this car to read it from")
            }
            guard let digits = VehicleProfile.minorDigits(ofCurrency: currency) else { throw Problem(message: VehicleProfile.currencyProblem(currency)) }
            do { return try MoneyText.parse(text, minorDigits: digits).value } catch { throw Problem(message: "\(name): \(error)") }
        }

        func finish() throws(Problem) {
            if let extra = values.keys.sorted().first { throw Problem(message: "\(extra) is not an option of this command") }
        }
    }
}
