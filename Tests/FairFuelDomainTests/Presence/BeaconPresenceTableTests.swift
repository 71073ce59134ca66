import FairFuelCore
import FairFuelDomain
import FairFuelParsers
import Testing

@Suite struct BeaconPresenceTableTests {
    static let alice = DriverID(1)
    static func beacon(_ n: UInt64) -> BeaconIdentity { .address(BLEAddress(rawValue: 0xC0_00_00_00_00_00 | n)) }
    static func t(_ seconds: Double) -> LinkMilliseconds { LinkMilliseconds(Int64(seconds * 1000)) }

    static func table(capacity: Int = 4) -> BeaconPresenceTable {
        BeaconPresenceTable(capacity: capacity, windowSamples: 5, thresholds: SessionThresholds())
    }

    @Test func strongFobIsPresentAndGoesAbsentWhenSilent() {
        var table = Self.table()
        table.observe(Self.beacon(1), driver: Self.alice, rssiDBm: -60, at: Self.t(0))
        #expect(table.isPresent(driver: Self.alice, at: Self.t(1)))
        #expect(table.lastPresent(driver: Self.alice) == Self.t(0))
        #expect(!table.isPresent(driver: Self.alice, at: Self.t(11)))
    }

    @Test func edgeOfRangeDoesNotFlap() {
        var table = Self.table()
        // Around -88 dBm, between the -90 exit and -85 entry thresholds: once present, it stays.
        table.observe(Self.beacon(1), driver: Self.alice, rssiDBm: -80, at: Self.t(0))
        var flips = 0
        var wasPresent = true
        for i in 1...200 {
            let rssi: Int8 = i % 2 == 0 ? -86 : -91
            table.observe(Self.beacon(1), driver: Self.alice, rssiDBm: rssi, at: Self.t(Double(i)))
            let present = table.isPresent(driver: Self.alice, at: Self.t(Double(i)))
            if present != wasPresent { flips += 1 }
            wasPresent = present
        }
        #expect(flips == 0)
        #expect(wasPresent)
    }

    @Test func weakSignalCountsAsAbsentWithHysteresis() {
        var table = Self.table()
        table.observe(Self.beacon(1), driver: Self.alice, rssiDBm: -70, at: Self.t(0))
        for i in 1...10 { table.observe(Self.beacon(1), driver: Self.alice, rssiDBm: -97, at: Self.t(Double(i))) }
        #expect(!table.isPresent(driver: Self.alice, at: Self.t(10)))
        let lastPresent = table.lastPresent(driver: Self.alice)!
        #expect(lastPresent < Self.t(5))
        // Back to -87: between thresholds, not enough to come back.
        for i in 11...20 { table.observe(Self.beacon(1), driver: Self.alice, rssiDBm: -87, at: Self.t(Double(i))) }
        #expect(!table.isPresent(driver: Self.alice, at: Self.t(20)))
        for i in 21...25 { table.observe(Self.beacon(1), driver: Self.alice, rssiDBm: -70, at: Self.t(Double(i))) }
        #expect(table.isPresent(driver: Self.alice, at: Self.t(25)))
    }

    @Test func strangersAreEvictedBeforeProvisionedBeacons() {
        var table = Self.table(capacity: 3)
        table.observe(Self.beacon(1), driver: Self.alice, rssiDBm: -60, at: Self.t(0))
        for n in 2...50 {
            table.observe(Self.beacon(UInt64(n)), driver: nil, rssiDBm: -70, at: Self.t(Double(n)))
            #expect(table.trackedCount <= 3)
        }
        #expect(table.isPresent(driver: Self.alice, at: Self.t(5)))
        #expect(table.lastPresent(driver: Self.alice) == Self.t(0))
        #expect(table.evictedCount == 47)
    }

    @Test func aTableFullOfProvisionedBeaconsRefusesStrangers() {
        var table = Self.table(capacity: 2)
        table.observe(Self.beacon(1), driver: DriverID(1), rssiDBm: -60, at: Self.t(0))
        table.observe(Self.beacon(2), driver: DriverID(2), rssiDBm: -60, at: Self.t(0))
        table.observe(Self.beacon(3), driver: nil, rssiDBm: -40, at: Self.t(1))
        #expect(table.refusedCount == 1)
        #expect(table.inRange(at: Self.t(1)).count == 2)
    }
}
