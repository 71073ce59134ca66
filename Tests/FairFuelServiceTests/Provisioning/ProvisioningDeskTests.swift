import FairFuelParsers
@testable import FairFuelService
import Testing

/// Learn-beacon's choice.
@Suite struct ProvisioningDeskTests {
    static let fob = try! BeaconIdentity(spec: "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:100:1")
    static let other = try! BeaconIdentity(spec: "eddystone:edd1ebeac04e5defa017:0000000000c4")
    static let phone = try! BeaconIdentity(spec: "mac:C0:11:22:33:44:55")

    static func seen(_ identity: BeaconIdentity, _ sightings: Int, _ rssi: Double?, nearForMs: Int64 = 5_000) -> ProvisioningDesk.Sighting {
        .init(identity: identity, sightings: sightings, rssiDBm: rssi, nearForMs: nearForMs)
    }

    @Test func theOnlyBeaconNearForTheHoldIsChosen() {
        #expect(ProvisioningDesk.choose([Self.seen(Self.fob, 5, -48), Self.seen(Self.phone, 9, -80, nearForMs: 0)], holdMs: 3_000) == .chosen(Self.fob, rssiDBm: -48))
        // 8 dB or more apart: the weaker one is not "equally close".
        #expect(ProvisioningDesk.choose([Self.seen(Self.fob, 5, -48), Self.seen(Self.other, 5, -56)], holdMs: 3_000) == .chosen(Self.fob, rssiDBm: -48))
        #expect(ProvisioningDesk.choose([Self.seen(Self.fob, 5, -48), Self.seen(Self.other, 5, -55.5)], holdMs: 3_000) == .tooClose(Self.fob, Self.other, -48, -55.5))
    }

    @Test func twoBeaconsWithinTheMarginRefuseEvenIfOneWasHeldLonger() {
        #expect(ProvisioningDesk.choose([Self.seen(Self.fob, 5, -50), Self.seen(Self.other, 5, -52.5)], holdMs: 3_000) == .tooClose(Self.fob, Self.other, -50, -52.5))
        #expect(ProvisioningDesk.choose([Self.seen(Self.fob, 5, -50), Self.seen(Self.other, 1, -49, nearForMs: 0)], holdMs: 3_000) == .tooClose(Self.fob, Self.other, -50, -49))
    }

    @Test func tooFewSightingsTooShortTooWeakOrLostIsNone() {
        #expect(ProvisioningDesk.choose([Self.seen(Self.fob, 2, -45)], holdMs: 3_000) == .none(strongest: "\(Self.fob.spec) at -45 dBm"))
        #expect(ProvisioningDesk.choose([Self.seen(Self.fob, 9, -45, nearForMs: 2_000)], holdMs: 3_000) == .none(strongest: "\(Self.fob.spec) at -45 dBm"))
        #expect(ProvisioningDesk.choose([Self.seen(Self.fob, 9, -70, nearForMs: 0)], holdMs: 3_000) == .none(strongest: "\(Self.fob.spec) at -70 dBm"))
        #expect(ProvisioningDesk.choose([Self.seen(Self.fob, 9, nil)], holdMs: 3_000) == .none(strongest: nil))
        // A weak second beacon does not block a near one.
        #expect(ProvisioningDesk.choose([Self.seen(Self.fob, 3, -60), Self.seen(Self.other, 9, -70, nearForMs: 0)], holdMs: 3_000) == .chosen(Self.fob, rssiDBm: -60))
    }

    @Test func randomDriverIDsAreVersion4() {
        let a = UUID128.random()
        let b = UUID128.random()
        #expect(a != b)
        #expect(a.description.dropFirst(14).first == "4")
        #expect("89ab".contains(a.description.dropFirst(19).first!))
    }
}
