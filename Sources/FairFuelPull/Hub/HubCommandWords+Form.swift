import FairFuelDomain

/// The hub's web forms (and its API's bodies) as the CLI's words: the car app's field names
/// (`liters`, `cost`, `full`, `odometer_km`, `station`, `note`, `confirm`) plus `at`, `refuel`,
/// `trip`, `driver` and `currency` (needed only when the hub holds no bill of the car), read by the one parser `fairfuel hub command` uses.
extension HubCommandWords {
    /// What a form may ask for, as `fairfuel hub command` says it.
    public static let formActions = ["refuel add", "refuel edit", "refuel remove", "trip assign", "trip move", "trip delete", "settle", "unsettle", "baseline mark"]

    /// The operation a form asks for, and whether it confirmed a warning (`confirm`: the CLI's `--force`).
    /// `carCurrency`: the car's, as `operation(_:carCurrency:)` takes it.
    public static func operation(
        action: String, fields: [String: String], carCurrency: String? = nil
    ) throws(Problem) -> (operation: FleetCommand.Operation, force: Bool) {
        (try operation(words(action: action, fields: fields), carCurrency: carCurrency), fields["confirm"].map { !$0.isEmpty } ?? false)
    }

    /// The words `fairfuel hub command` would be given for the form.
    static func words(action: String, fields raw: [String: String]) throws(Problem) -> [String] {
        guard formActions.contains(action) else { throw Problem(message: "action: say one of \(formActions.joined(separator: ", "))") }
        // An empty field is one left blank (the web app trims what it reads).
        let fields = raw.filter { !$0.value.isEmpty }
        var words = action.split(separator: " ").map(String.init)
        func option(_ field: String, _ name: String? = nil) {
            if let value = fields[field] { words += ["--" + (name ?? field.replacingUnderscores()), value] }
        }
        func required(_ field: String, _ what: String) throws(Problem) -> String {
            guard let value = fields[field] else { throw Problem(message: "\(field): say \(what)") }
            return value
        }
        switch action {
        case "refuel add":
            for field in ["at", "liters", "cost", "currency", "odometer_km", "station", "note"] { option(field) }
            // The car's form: a checked `full` is a full tank, an unchecked one (absent) a partial fill.
            if fields["full"] == nil { words.append("--partial") }
        case "refuel edit":
            words.append(try required("refuel", "which refuel"))
            for field in ["at", "liters", "cost", "currency", "odometer_km"] { option(field) }
            // An edit changes the fill only when asked: `full` 1 (full) or 0 (partial), absent: as it is.
            switch fields["full"] {
            case nil: break
            case "0", "false", "partial": words.append("--partial")
            default: words.append("--full")
            }
        case "refuel remove":
            words.append(try required("refuel", "which refuel"))
        case "trip assign":
            words += [try required("trip", "which trip (42, or u7 for untracked driving)"), try required("driver", "to whom")]
        case "trip move":
            words += [try required("trip", "which recorded trip (42)"), try required("driver", "to whom")]
        case "trip delete":
            words.append(try required("trip", "which trip"))
        case "baseline mark":
            option("at")
        default:  // settle, unsettle: the refuels' ids, separated by commas or spaces
            words += try required("refuel", "which refuels").split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        }
        return words
    }
}

extension String {
    fileprivate func replacingUnderscores() -> String { String(map { $0 == "_" ? "-" : $0 }) }
}
