import FairFuelCore
import FairFuelDomain
@testable import FairFuelServiceCore
import Testing

/// The car's side of commands from the hub, as plain values: an envelope signed with the pairing
/// secret is read into a command; anything else is refused with a reason, logged at most once a minute.
@Suite struct CommandDeskTests {
    static let secretHex = "00112233445566778899aabbccddeeff"
    static let key = Hex.bytes(secretHex)!
    static let issued = Int64(1_795_000_000_000)

    /// The desk's decisions, not the MAC's: a keyed 32-byte digest stands in for HMAC-SHA256 (which
    /// the edges test against RFC 4231, and `FleetCommandServiceTests` end to end), so that this
    /// sans-I/O target links no C library.
    static func testMAC(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var lanes = [UInt64](repeating: 0xCBF2_9CE4_8422_2325, count: 4)
        for (index, byte) in (key + [0xFF] + message + key).enumerated() {
            let lane = index % 4
            lanes[lane] = (lanes[lane] ^ UInt64(byte) ^ UInt64(index)) &* 0x0000_0100_0000_01B3
        }
        return lanes.flatMap { lane in (0..<8).map { UInt8(truncatingIfNeeded: lane >> ($0 * 8)) } }
    }

    static func desk() -> CommandDesk {
        CommandDesk { key, message, mac in testMAC(key: key, message: message) == mac }
    }

    static func sign(_ command: FleetCommand, key: [UInt8] = key) -> [UInt8] {
        Array(command.signedEnvelope(key: key, mac: testMAC).utf8)
    }

    static let add = FleetCommand(
        id: "c-0001", issuedUTCMs: issued,
        operation: .refuelAdd(.init(atUTCMs: issued - 3_600_000, liters: 41.2, costMinorUnits: 7_396, currency: "EUR", fullTank: true, station: "Aral \"Nord\"")))

    @Test func everyCommandSignedWithTheSecretIsReadBackAsItWasSent() {
        let commands: [FleetCommand] = [
            Self.add,
            FleetCommand(id: "c2", issuedUTCMs: Self.issued, force: true, operation: .refuelEdit(refuel: 12, .init(liters: 40, fullTank: false))),
            FleetCommand(id: "c3", issuedUTCMs: Self.issued, operation: .refuelRemove(refuel: 3)),
            FleetCommand(id: "c4", issuedUTCMs: Self.issued, operation: .tripAssign(trips: ["42", "u7"], driver: "Anna")),
            FleetCommand(id: "c5", issuedUTCMs: Self.issued, operation: .tripDelete(trip: "42")),
            FleetCommand(id: "c6", issuedUTCMs: Self.issued, operation: .settle(refuels: [1, 2])),
            FleetCommand(id: "c7", issuedUTCMs: Self.issued, operation: .unsettle(refuels: [2])),
            FleetCommand(id: "c8", issuedUTCMs: Self.issued, operation: .resend(sinceMessageID: 1_042)),
            FleetCommand(id: "c9", issuedUTCMs: Self.issued, operation: .tripMove(trip: "42", driver: "Bob")),
            FleetCommand(id: "c10", issuedUTCMs: Self.issued, operation: .baselineMark(atUTCMs: Self.issued - 60_000)),
            FleetCommand(id: "c11", issuedUTCMs: Self.issued, operation: .baselineMark(atUTCMs: nil)),
        ]
        var desk = Self.desk()
        for command in commands {
            let decision = desk.receive(Self.sign(command), secretHex: Self.secretHex, nowMs: 0)
            #expect(decision == CommandDesk.Decision(verdict: .apply(command), logLine: nil))
        }
    }

    @Test func aWrongSecretOrATamperedPayloadIsRefusedAndLoggedOnceAMinute() throws {
        var desk = Self.desk()
        let wrongKey = Hex.bytes("ffeeddccbbaa99887766554433221100")!
        let first = desk.receive(Self.sign(Self.add, key: wrongKey), secretHex: Self.secretHex, nowMs: 1_000)
        #expect(first.verdict == .refuse(id: "c-0001", reason: "the command's HMAC does not match this car's pairing secret"))
        #expect(first.logLine?.contains("command c-0001 refused") == true)
        // The same MAC over a payload with a changed cost: refused, counted, not logged again within the minute.
        let signed = String(decoding: Self.sign(Self.add), as: UTF8.self)
        let tampered = signed.replacing("7396", with: "1")
        #expect(tampered != signed)
        let second = desk.receive(Array(tampered.utf8), secretHex: Self.secretHex, nowMs: 2_000)
        #expect(second.verdict == .refuse(id: "c-0001", reason: "the command's HMAC does not match this car's pairing secret"))
        #expect(second.logLine == nil)
        let later = desk.receive(Array(tampered.utf8), secretHex: Self.secretHex, nowMs: 62_000)
        #expect(later.logLine?.contains("1 more refused") == true)
        // The id is covered too: the same payload and MAC under another id is refused.
        let moved = signed.replacing("\"id\":\"c-0001\"", with: "\"id\":\"c-0002\"")
        #expect(desk.receive(Array(moved.utf8), secretHex: Self.secretHex, nowMs: 63_000).verdict
            == .refuse(id: "c-0002", reason: "the command's HMAC does not match this car's pairing secret"))
    }

    @Test func aCarWithoutAPairingSecretRefusesEveryCommand() {
        var desk = Self.desk()
        #expect(desk.receive(Self.sign(Self.add), secretHex: nil, nowMs: 0).verdict
            == .refuse(id: "c-0001", reason: "this car has no pairing secret to check commands with (`fairfuel pairing-secret`)"))
    }

    /// Each line has one defect; every one is refused with its reason, none applied.
    @Test func malformedEnvelopesAndPayloadsAreRefusedWithAReason() {
        func signed(_ id: String, _ payload: String) -> [UInt8] {
            var json = JSONLine()
            json.add("id", id)
            json.add("payload", payload)
            json.add("hmac", Hex.string(Self.testMAC(key: Self.key, message: FleetCommand.signedMessage(id: id, payload: payload))))
            return Array(json.string.utf8)
        }
        let cases: [([UInt8], String)] = [
            (Array("not json".utf8), "not a command envelope"),
            ([UInt8](repeating: 0x20, count: CommandDesk.maximumMessageBytes + 1), "not a command envelope"),
            ([0xFF, 0xFE], "not a command envelope"),
            (Array(#"{"payload":"{}","hmac":"00"}"#.utf8), "no valid id"),
            (Array(#"{"id":"has space","payload":"{}","hmac":"00"}"#.utf8), "no valid id"),
            (Array(#"{"id":"c1","hmac":"00"}"#.utf8), "needs a payload"),
            (Array(#"{"id":"c1","payload":"{}","hmac":"zz"}"#.utf8), "HMAC does not match"),
            (signed("c1", "[1]"), "not a JSON object"),
            (signed("c1", #"{"v":2,"command":"settle","issued_utc":"2026-11-25T17:20:00Z","refuels":[1]}"#), "payload version"),
            (signed("c1", #"{"v":1,"command":"launch","issued_utc":"2026-11-25T17:20:00Z"}"#), "unknown command 'launch'"),
            (signed("c1", #"{"v":1,"command":"settle","issued_utc":"yesterday","refuels":[1]}"#), "issued_utc"),
            (signed("c1", #"{"v":1,"command":"settle","issued_utc":"2026-11-25T17:20:00Z","refuels":[]}"#), "list of 1 to"),
            (signed("c1", #"{"v":1,"command":"settle","issued_utc":"2026-11-25T17:20:00Z","refuels":[-4]}"#), "positive integer ids"),
            (signed("c1", #"{"v":1,"command":"refuel_add","issued_utc":"2026-11-25T17:20:00Z","at_utc":"2026-11-25T17:00:00Z","liters":"41","cost_cents":7396}"#), "liters must be a number"),
            (signed("c1", #"{"v":1,"command":"refuel_add","issued_utc":"2026-11-25T17:20:00Z","at_utc":"2026-11-25T17:00:00Z","liters":999999999999,"cost_cents":7396}"#), "at most 500"),
            (signed("c1", #"{"v":1,"command":"refuel_add","issued_utc":"2026-11-25T17:20:00Z","at_utc":"2026-11-25T17:00:00Z","liters":41,"cost_cents":1.5}"#), "integer of minor units"),
            (signed("c1", #"{"v":1,"command":"refuel_add","issued_utc":"2026-11-25T17:20:00Z","at_utc":"2026-11-25T17:00:00Z","liters":41,"cost_cents":7396,"currency":"EUR","note":"a\u0007b"}"#), "control characters"),
            (signed("c1", #"{"v":1,"command":"refuel_add","issued_utc":"2026-11-25T17:20:00Z","at_utc":"2026-11-25T17:00:00Z","liters":41,"cost_cents":7396}"#), "currency is missing"),
            (signed("c1", #"{"v":1,"command":"refuel_add","issued_utc":"2026-11-25T17:20:00Z","at_utc":"2026-11-25T17:00:00Z","liters":41,"cost_cents":7396,"currency":"yen"}"#), "currency must be an ISO 4217 code"),
            (signed("c1", #"{"v":1,"command":"refuel_edit","issued_utc":"2026-11-25T17:20:00Z","refuel":3,"cost_cents":7396}"#), "currency is missing (the code of cost_cents)"),
            (signed("c1", #"{"v":1,"command":"trip_assign","issued_utc":"2026-11-25T17:20:00Z","trips":[42],"driver":"Anna"}"#), "trip ids"),
            (signed("c1", #"{"v":1,"command":"trip_move","issued_utc":"2026-11-25T17:20:00Z","trip":42,"driver":"Anna"}"#), "trip id"),
            (signed("c1", #"{"v":1,"command":"trip_move","issued_utc":"2026-11-25T17:20:00Z","trip":"42"}"#), "driver is missing"),
            (signed("c1", #"{"v":1,"command":"baseline_mark","issued_utc":"2026-11-25T17:20:00Z","at_utc":12}"#), "at_utc must be an ISO 8601 string"),
            (signed("c1", #"{"v":1,"command":"resend","issued_utc":"2026-11-25T17:20:00Z","since_message_id":-1}"#), "cannot be negative"),
        ]
        var desk = Self.desk()
        for (message, reason) in cases {
            let verdict = desk.receive(message, secretHex: Self.secretHex, nowMs: 0).verdict
            guard case let .refuse(_, text) = verdict else {
                Issue.record("applied: \(String(decoding: message, as: UTF8.self))")
                continue
            }
            #expect(text.contains(reason), "\(text) lacks \(reason)")
        }
    }

    @Test func theResultMessageCarriesTheIdTheOutcomeAndTheReason() {
        #expect(String(decoding: CommandDesk.result(id: "c1", outcome: .alreadyApplied, reason: nil), as: UTF8.self)
            == #"{"id":"c1","outcome":"already_applied","reason":null}"#)
        #expect(String(decoding: CommandDesk.result(id: nil, outcome: .refused, reason: "bad \"x\""), as: UTF8.self)
            == #"{"id":null,"outcome":"refused","reason":"bad \"x\""}"#)
    }
}
