import FairFuelCore

/// A correction of a car's book sent down from the family's hub over MQTT (docs/mqtt.md,
/// "Commands"): what the command asks, as plain values, with its unique id.
///
/// The wire form is an envelope `{"id":…,"payload":"<text>","hmac":"<64 hex>"}` whose payload is
/// the command's JSON as a string, so that the MAC covers the exact bytes the hub signed
/// (`FleetCommand.signedMessage`). This type reads and writes the payload; the envelope and the
/// MAC are the command desk's and the hub's.
public struct FleetCommand: Sendable, Equatable {
    /// The payload version every command carries as `v`.
    public static let payloadVersion = 1
    /// Ids are 1...64 of `A-Z a-z 0-9 . _ -`: a hub makes them unique (a random hex string).
    public static let maximumIDLength = 64
    /// At most this many trips or bills in one command: a family's month, not a history.
    public static let maximumItems = 200

    public var id: String
    /// When the hub issued it (UTC ms): the time a settle is stamped with.
    public var issuedUTCMs: Int64
    /// Go ahead even when a settled bill's split would move (it is kept as it was), as the CLI's `--force`.
    public var force: Bool
    public var operation: Operation

    public enum Operation: Sendable, Equatable {
        case refuelAdd(RefuelFields)
        case refuelEdit(refuel: Int64, RefuelChanges)
        case refuelRemove(refuel: Int64)
        /// Trips as `fairfuel trips` names them (`42`, `u7`) and the driver's name (any case).
        case tripAssign(trips: [String], driver: String)
        /// A recorded trip (a session, `42`) given to another driver: `trips assign` of one recorded
        /// trip, refused for untracked driving, which is assigned rather than moved.
        case tripMove(trip: String, driver: String)
        case tripDelete(trip: String)
        case settle(refuels: [Int64])
        case unsettle(refuels: [Int64])
        /// The tank was full at this moment (`refuel add --baseline --at`); nil: when the hub issued the command.
        case baselineMark(atUTCMs: Int64?)
        /// Publish again every record whose last message came after this outbox message id (0: all).
        case resend(sinceMessageID: Int64)

        /// The `command` field's value.
        public var name: String {
            switch self {
            case .refuelAdd: "refuel_add"
            case .refuelEdit: "refuel_edit"
            case .refuelRemove: "refuel_remove"
            case .tripAssign: "trip_assign"
            case .tripMove: "trip_move"
            case .tripDelete: "trip_delete"
            case .settle: "settle"
            case .unsettle: "unsettle"
            case .baselineMark: "baseline_mark"
            case .resend: "resend"
            }
        }
    }

    /// A refuel as the family enters it; money in minor units of `currency`, which the car refuses
    /// unless it is its own (the hub read the cost in that currency's minor units).
    public struct RefuelFields: Sendable, Equatable {
        public var atUTCMs: Int64
        public var liters: Double
        public var costMinorUnits: Int64
        /// The ISO 4217 code of `costMinorUnits`.
        public var currency: String
        public var fullTank: Bool
        public var odometerKilometers: Double?
        public var fuelType: String?
        public var station: String?
        public var note: String?

        public init(atUTCMs: Int64, liters: Double, costMinorUnits: Int64, currency: String, fullTank: Bool = true, odometerKilometers: Double? = nil,
                    fuelType: String? = nil, station: String? = nil, note: String? = nil) {
            self.atUTCMs = atUTCMs
            self.liters = liters
            self.costMinorUnits = costMinorUnits
            self.currency = currency
            self.fullTank = fullTank
            self.odometerKilometers = odometerKilometers
            self.fuelType = fuelType
            self.station = station
            self.note = note
        }
    }

    /// The fields of a refuel to correct; nil leaves one as it is.
    public struct RefuelChanges: Sendable, Equatable {
        public var atUTCMs: Int64?
        public var liters: Double?
        public var costMinorUnits: Int64?
        /// The ISO 4217 code of `costMinorUnits`; a cost without it is refused.
        public var currency: String?
        public var fullTank: Bool?
        public var odometerKilometers: Double?

        public init(atUTCMs: Int64? = nil, liters: Double? = nil, costMinorUnits: Int64? = nil, currency: String? = nil, fullTank: Bool? = nil,
                    odometerKilometers: Double? = nil) {
            self.atUTCMs = atUTCMs
            self.liters = liters
            self.costMinorUnits = costMinorUnits
            self.currency = currency
            self.fullTank = fullTank
            self.odometerKilometers = odometerKilometers
        }
    }

    public init(id: String, issuedUTCMs: Int64, force: Bool = false, operation: Operation) {
        self.id = id
        self.issuedUTCMs = issuedUTCMs
        self.force = force
        self.operation = operation
    }

    /// What the MAC covers: a label, the id and the payload text, so that neither can be swapped
    /// for another command's.
    public static func signedMessage(id: String, payload: String) -> [UInt8] {
        Array("fairfuel-command-v1\n".utf8) + Array(id.utf8) + [0x0A] + Array(payload.utf8)
    }

    public static func isValidID(_ id: String) -> Bool {
        (1...maximumIDLength).contains(id.utf8.count) && id.utf8.allSatisfy { byte in
            (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 0x2E || byte == 0x5F || byte == 0x2D
        }
    }
}

extension FleetCommand {
    /// The payload's JSON text (without the id, which the envelope carries).
    public var payloadJSON: String {
        var json = JSONLine()
        json.add("v", Self.payloadVersion)
        json.add("command", operation.name)
        json.add("issued_utc", UTCTimestamp(millisecondsSinceEpoch: issuedUTCMs).iso8601)
        if force { json.add("force", true) }
        switch operation {
        case let .refuelAdd(fields):
            json.add("at_utc", UTCTimestamp(millisecondsSinceEpoch: fields.atUTCMs).iso8601)
            json.add("liters", fields.liters, decimals: 3)
            json.add("cost_cents", fields.costMinorUnits)
            json.add("currency", fields.currency)
            json.add("full", fields.fullTank)
            if let odometer = fields.odometerKilometers { json.add("odometer_km", odometer, decimals: 1) }
            if let fuel = fields.fuelType { json.add("fuel", fuel) }
            if let station = fields.station { json.add("station", station) }
            if let note = fields.note { json.add("note", note) }
        case let .refuelEdit(refuel, changes):
            json.add("refuel", refuel)
            if let at = changes.atUTCMs { json.add("at_utc", UTCTimestamp(millisecondsSinceEpoch: at).iso8601) }
            if let liters = changes.liters { json.add("liters", liters, decimals: 3) }
            if let cost = changes.costMinorUnits { json.add("cost_cents", cost) }
            if let currency = changes.currency { json.add("currency", currency) }
            if let full = changes.fullTank { json.add("full", full) }
            if let odometer = changes.odometerKilometers { json.add("odometer_km", odometer, decimals: 1) }
        case let .refuelRemove(refuel):
            json.add("refuel", refuel)
        case let .tripAssign(trips, driver):
            json.addRaw("trips", json: JSONLine.array(trips.map(Self.quoted)))
            json.add("driver", driver)
        case let .tripMove(trip, driver):
            json.add("trip", trip)
            json.add("driver", driver)
        case let .tripDelete(trip):
            json.add("trip", trip)
        case let .baselineMark(at):
            if let at { json.add("at_utc", UTCTimestamp(millisecondsSinceEpoch: at).iso8601) }
        case let .settle(refuels), let .unsettle(refuels):
            json.addRaw("refuels", json: JSONLine.array(refuels.map(String.init)))
        case let .resend(since):
            json.add("since_message_id", since)
        }
        return json.string
    }

    /// Reads a payload; a clear reason when it is not a command this car knows, with fields of the
    /// wrong type or out of range. The store's own checks (tank size, settled bills, ...) come after.
    public static func parse(id: String, payload: String) -> Result<FleetCommand, FleetCommandError> {
        guard isValidID(id) else { return .failure(.invalid("the id must be 1 to \(maximumIDLength) of A-Z a-z 0-9 . _ -")) }
        guard let json = JSONValue(payload), case .object = json else { return .failure(.invalid("the payload is not a JSON object")) }
        do throws(FleetCommandError) {
            let reader = FieldReader(json: json)
            guard try reader.int("v") == payloadVersion else { throw .invalid("payload version \(payloadVersion) is the only one known") }
            let issued = try reader.instant("issued_utc")
            let force = try reader.optionalBool("force") ?? false
            let operation: Operation
            switch try reader.text("command") {
            case "refuel_add":
                operation = .refuelAdd(RefuelFields(
                    atUTCMs: try reader.instant("at_utc"), liters: try reader.liters("liters"), costMinorUnits: try reader.cost("cost_cents"),
                    currency: try reader.currency("currency"), fullTank: try reader.optionalBool("full") ?? true,
                    odometerKilometers: try reader.optionalOdometer("odometer_km"),
                    fuelType: try reader.optionalText("fuel"), station: try reader.optionalText("station"), note: try reader.optionalText("note")))
            case "refuel_edit":
                let changes = RefuelChanges(
                    atUTCMs: try reader.optionalInstant("at_utc"), liters: try reader.optionalLiters("liters"),
                    costMinorUnits: try reader.optionalCost("cost_cents"), currency: try reader.optionalCurrency("currency"),
                    fullTank: try reader.optionalBool("full"), odometerKilometers: try reader.optionalOdometer("odometer_km"))
                // A cost is read in its currency's minor units: without the code it could be 100 times off.
                if changes.costMinorUnits != nil, changes.currency == nil { throw .invalid("currency is missing (the code of cost_cents)") }
                operation = .refuelEdit(refuel: try reader.recordID("refuel"), changes)
            case "refuel_remove":
                operation = .refuelRemove(refuel: try reader.recordID("refuel"))
            case "trip_assign":
                operation = .tripAssign(trips: try reader.tripList("trips"), driver: try reader.text("driver"))
            case "trip_move":
                operation = .tripMove(trip: try reader.trip("trip"), driver: try reader.text("driver"))
            case "baseline_mark":
                operation = .baselineMark(atUTCMs: try reader.optionalInstant("at_utc"))
            case "trip_delete":
                operation = .tripDelete(trip: try reader.text("trip"))
            case "settle":
                operation = .settle(refuels: try reader.recordIDList("refuels"))
            case "unsettle":
                operation = .unsettle(refuels: try reader.recordIDList("refuels"))
            case "resend":
                let since = try reader.int("since_message_id")
                guard since >= 0 else { throw .invalid("since_message_id cannot be negative") }
                operation = .resend(sinceMessageID: since)
            case let other:
                throw .invalid("unknown command '\(other)'")
            }
            return .success(FleetCommand(id: id, issuedUTCMs: issued, force: force, operation: operation))
        } catch {
            return .failure(error)
        }
    }
}

/// Why a command was not read.
public enum FleetCommandError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalid(String)
    public var description: String {
        switch self {
        case let .invalid(reason): reason
        }
    }
}

extension FleetCommand {
    /// The envelope a hub publishes on `<prefix>/<vehicle>/command`: the id, the payload as text,
    /// and its MAC under `key` (the car's pairing secret) by `mac` (HMAC-SHA256).
    public func signedEnvelope(key: [UInt8], mac: ([UInt8], [UInt8]) -> [UInt8]) -> String {
        let payload = payloadJSON
        var json = JSONLine()
        json.add("id", id)
        json.add("payload", payload)
        json.add("hmac", Hex.string(mac(key, Self.signedMessage(id: id, payload: payload))))
        return json.string
    }

    fileprivate static func quoted(_ text: String) -> String {
        var out = ""
        JSONLine.appendQuoted(text, to: &out)
        return out
    }
}
