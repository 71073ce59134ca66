import FairFuelCore
import FairFuelStore

/// The hub's check of one record message against the documented payloads (docs/mqtt.md,
/// "Payloads (version 1)") before anything is stored: each field of its type, figures within what
/// a car can do, a split's shares summing to its bill. Nil: the message may be stored; otherwise
/// the reason, which the hub keeps and `fairfuel hub status` shows. Plain values in, no I/O.
enum HubMessageCheck {
    /// Longest trip a car can drive in one session, with margin: 10 000 km (a week at the wheel).
    static let maximumTripMeters = 10_000_000.0
    /// Longest session: 31 days.
    static let maximumDurationMs: Int64 = 31 * 86_400_000
    /// Most fuel one trip or one refuel can take: 500 L (a van's tank; `refuel add` takes 0.1 to 500).
    static let maximumLiters = 500.0
    /// Fastest a car goes: 120 m/s (432 km/h).
    static let maximumSpeedMetersPerSecond = 120.0
    /// Dearest bill: 100 000.00 in the bill's currency, as `refuel add --cost` allows.
    static let maximumCostMinorUnits: Int64 = 10_000_000
    static let maximumShares = 64
    static let maximumTextScalars = 200
    /// Largest message the hub reads: a trip with its longest track (below) at about 40 bytes a
    /// point is under 1 MiB; anything larger is refused before it is parsed.
    static let maximumPayloadBytes = 1 << 20
    /// Most points of a trip's `track`: the store keeps a simplified track (a point per turn, not
    /// per second), so 20 000 is more than a 10 000 km trip keeps; it also bounds what the family's
    /// views draw.
    static let maximumTrackPoints = 20_000
    /// The shares of one bill burnt the fuel since the previous fill: at most one tank, so their
    /// litres add up to at most `maximumLiters` (plus each share's rounding to 1 mL).
    static let maximumSharesLiters = maximumLiters

    /// The vehicle_uid bindings a hub with a database keeps in memory (a cache of the database's):
    /// a fleet's cars many times over, and a few MB at most.
    static let maximumCachedUIDs = 10_000

    static func tooManyUIDs(vehicle: String) -> String {
        "vehicle \(vehicle) already claims \(HubRecordSQL.maximumUIDsPerVehicle) vehicle_uids, as many as a car's stores made anew ever need"
    }

    /// The refusal of a payload too large to read, nil for one the hub may parse.
    static func sizeProblem(byteCount: Int) -> String? {
        byteCount <= maximumPayloadBytes ? nil : "the message is \(byteCount) bytes, more than the \(maximumPayloadBytes) a record can be"
    }

    static func problem(kind: String, vehicle: String, _ json: JSONValue) -> String? {
        guard case .object = json else { return "not a JSON object" }
        if let problem = envelopeProblem(vehicle: vehicle, json) { return problem }
        if json["deleted"] != nil {
            return json["deleted"]?.bool == true ? nil : "deleted must be true"
        }
        switch kind {
        case "trip": return tripProblem(json)
        case "refuel": return refuelProblem(json)
        case "split": return splitProblem(json)
        default: return "\(kind) is not a record topic"
        }
    }

    private static func envelopeProblem(vehicle: String, _ json: JSONValue) -> String? {
        guard json["v"]?.int == 1 else { return "payload version \(text(json["v"])) (1 is the only one known)" }
        if let problem = integer(json, "message_id", 1...Int64(1e15), required: true) { return problem }
        if let problem = integer(json, "id", 1...Int64(1e15), required: true) { return problem }
        if let problem = integer(json, "revision", 0...Int64(1e9), required: true) { return problem }
        guard json["vehicle"]?.string == vehicle else { return "vehicle \(text(json["vehicle"])) is not the topic's \(vehicle)" }
        if json["vehicle_uid"] != nil, !HubCollector.isPlainID(json["vehicle_uid"]?.string) { return "vehicle_uid must be a plain id" }
        for name in ["vehicle_name", "vehicle_time_zone"] {
            if let problem = optionalText(json, name) { return problem }
        }
        return nil
    }

    private static func tripProblem(_ json: JSONValue) -> String? {
        for name in ["driver", "driver_uuid", "end_reason"] {
            if let problem = optionalText(json, name) { return problem }
        }
        for name in ["start_utc", "end_utc", "stopped_utc", "driver_left_utc"] {
            if let problem = instant(json, name, required: false) { return problem }
        }
        if let problem = number(json, "distance_m", 0...maximumTripMeters) ?? number(json, "distance_km", 0...maximumTripMeters / 1000) {
            return problem
        }
        guard json["distance_m"] != nil || json["distance_km"] != nil else { return "distance_m is missing" }
        if let problem = number(json, "fuel_ml", 0...maximumLiters * 1000) ?? number(json, "fuel_l", 0...maximumLiters) { return problem }
        for name in ["duration_ms", "moving_ms", "idle_ms"] {
            if let problem = integer(json, name, 0...maximumDurationMs) { return problem }
        }
        for name in ["duration_s", "moving_s", "idle_s"] {
            if let problem = integer(json, name, 0...maximumDurationMs / 1000) { return problem }
        }
        for name in ["harsh_accel", "harsh_brake"] {
            if let problem = integer(json, name, 0...1_000_000) { return problem }
        }
        if let problem = number(json, "max_speed_mps", 0...maximumSpeedMetersPerSecond)
            ?? number(json, "max_speed_kmh", 0...maximumSpeedMetersPerSecond * 3.6) { return problem }
        return positionsProblem(json)
    }

    /// `start` and `end` as [lat, lon], `track` as at most `maximumTrackPoints` of [t_utc_ms, lat, lon].
    private static func positionsProblem(_ json: JSONValue) -> String? {
        for name in ["start", "end"] {
            guard let value = json[name] else { continue }
            guard case let .array(pair) = value, pair.count == 2, isPosition(pair[0], pair[1]) else {
                return "\(name) must be [latitude, longitude] in degrees"
            }
        }
        guard let value = json["track"] else { return nil }
        guard case let .array(points) = value else { return "track must be a list of [t_utc_ms, lat, lon]" }
        guard points.count <= maximumTrackPoints else { return "track has \(points.count) points, more than \(maximumTrackPoints)" }
        for point in points {
            guard case let .array(fields) = point, fields.count == 3, let t = fields[0].int, t >= 0, isPosition(fields[1], fields[2]) else {
                return "a track point must be [t_utc_ms, lat, lon] in degrees"
            }
        }
        return nil
    }

    private static func isPosition(_ latitude: JSONValue, _ longitude: JSONValue) -> Bool {
        guard let lat = latitude.double, let lon = longitude.double else { return false }
        return (-90...90).contains(lat) && (-180...180).contains(lon)
    }

    private static func refuelProblem(_ json: JSONValue) -> String? {
        if let problem = billProblem(json) { return problem }
        if let problem = number(json, "odometer_km", 0...10_000_000) { return problem }
        for name in ["fuel", "station", "note"] {
            if let problem = optionalText(json, name) { return problem }
        }
        return instant(json, "entered_utc", required: false)
    }

    private static func splitProblem(_ json: JSONValue) -> String? {
        if let problem = billProblem(json) { return problem }
        // A baseline mark's split has no shares (and no cost, which the sum below holds it to).
        guard case let .array(shares)? = json["shares"], (0...maximumShares).contains(shares.count) else {
            return "shares must be a list of at most \(maximumShares)"
        }
        var sum: Int64 = 0
        var liters = 0.0
        for share in shares {
            guard case .object = share else { return "a share must be an object" }
            if let problem = optionalText(share, "driver") ?? optionalText(share, "driver_uuid") { return "share: " + problem }
            if let problem = number(share, "fuel_l", 0...maximumLiters, required: true) { return "share: " + problem }
            if let problem = integer(share, "cost_cents", 0...maximumCostMinorUnits, required: true) { return "share: " + problem }
            if share["before_tracking"] != nil, share["before_tracking"]?.bool == nil { return "share: before_tracking must be true or false" }
            sum += share["cost_cents"]?.int ?? 0
            liters += share["fuel_l"]?.double ?? 0
        }
        // Each share is rounded to 1 mL, so the sum may pass the tank by that much per share.
        if liters > maximumSharesLiters + 0.001 * Double(shares.count) {
            return "the shares' fuel_l add up to \(format(liters)) L, more than one tank (\(format(maximumSharesLiters)) L) between two fills"
        }
        let bill = json["cost_cents"]?.int ?? 0
        return sum == bill ? nil : "the shares add up to \(sum), not the bill's cost_cents \(bill)"
    }

    /// What a refuel and its split both carry: when, how much, what it cost, in which currency.
    private static func billProblem(_ json: JSONValue) -> String? {
        if let problem = instant(json, "at_utc", required: true) { return problem }
        if let problem = number(json, "liters", 0...maximumLiters, required: true) { return problem }
        if let problem = integer(json, "cost_cents", 0...maximumCostMinorUnits, required: true) { return problem }
        if json["full"] != nil, json["full"]?.bool == nil { return "full must be true or false" }
        guard let currency = json["currency"]?.string, currency.utf8.count == 3, currency.utf8.allSatisfy({ (65...90).contains($0) }) else {
            return "currency must be an ISO 4217 code (EUR)"
        }
        return nil
    }

    // MARK: Fields

    private static func text(_ value: JSONValue?) -> String {
        switch value {
        case nil: "missing"
        case let .string(text)?: "\"\(text.prefix(40))\""
        case let .literal(text)?: String(text.prefix(40))
        case .object?: "an object"
        case .array?: "a list"
        }
    }

    private static func optionalText(_ json: JSONValue, _ name: String) -> String? {
        guard let value = json[name] else { return nil }
        guard let string = value.string else { return "\(name) must be text, not \(text(value))" }
        guard string.unicodeScalars.count <= maximumTextScalars else { return "\(name) is longer than \(maximumTextScalars) characters" }
        guard !string.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return "\(name) contains control characters" }
        return nil
    }

    private static func instant(_ json: JSONValue, _ name: String, required: Bool) -> String? {
        guard let value = json[name] else { return required ? "\(name) is missing" : nil }
        guard let string = value.string, (try? ISO8601.parse(string)) != nil else { return "\(name) must be an ISO 8601 UTC time, not \(text(value))" }
        return nil
    }

    private static func number(_ json: JSONValue, _ name: String, _ range: ClosedRange<Double>, required: Bool = false) -> String? {
        guard let value = json[name] else { return required ? "\(name) is missing" : nil }
        guard let number = value.double, number.isFinite else { return "\(name) must be a number, not \(text(value))" }
        return range.contains(number) ? nil : "\(name) \(text(value)) is outside \(format(range.lowerBound))...\(format(range.upperBound))"
    }

    private static func integer(_ json: JSONValue, _ name: String, _ range: ClosedRange<Int64>, required: Bool = false) -> String? {
        guard let value = json[name] else { return required ? "\(name) is missing" : nil }
        guard let number = value.int else { return "\(name) must be an integer, not \(text(value))" }
        return range.contains(number) ? nil : "\(name) \(number) is outside \(range.lowerBound)...\(range.upperBound)"
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && value.magnitude < 1e15 ? String(Int64(value)) : String(value)
    }
}
