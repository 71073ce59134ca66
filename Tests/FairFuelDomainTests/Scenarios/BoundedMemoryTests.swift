import FairFuelCore
import FairFuelDomain
import FairFuelParsers
import Testing
import TestSupport

/// A week of driving with a crowd around the car: every buffer of the domain stays at the
/// size it was given, however many strangers pass.
@Suite("Bounded memory", .tags(.replay))
struct BoundedMemoryTests {
    @Test("a week with hundreds of passing advertisers keeps every domain buffer at its capacity")
    func aWeekWithACrowd() throws {
        // Day by day scripting in a debug build needs more stack than a test thread has.
        try onLargeStack { try Self.aWeekWithACrowdOnce() }
    }

    static func aWeekWithACrowdOnce() throws {
        var options = ScenarioOptions(seed: 77)
        options.crowd = 2
        var week = FamilyMonth(seed: 77, days: 7, options: options)
        var monitor = DrivingMonitor(
            configuration: MonitorConfiguration(), directory: ScenarioFamily.standard.directory,
            fuel: FuelEstimator(model: FuelModel(profile: try VehicleFuelProfile())))
        let tableCapacity = monitor.presence.capacity
        let historyCapacity = monitor.trip.speedHistoryCapacity
        var advertisers = Set<BLEAddress>()
        var trackedAdvertisers = Set<BeaconIdentity>()
        var mostTracked = 0
        var mostHistory = 0
        var overflows = 0
        var events = 0
        while let day = week.day() {
            for event in day.events {
                if case let .advertisement(advert) = event.signal {
                    advertisers.insert(advert.address)
                    let identities = BeaconIdentities(address: advert.address, addressType: advert.addressType, data: advert.data[...])
                    for identity in identities { trackedAdvertisers.insert(identity) }
                }
                guard let domainEvent = event.domainEvent(ignitionSense: true) else { continue }
                monitor.handle(domainEvent) { _ in }
                events += 1
                let tracked = monitor.presence.trackedCount
                let history = monitor.trip.speedHistoryCount
                mostTracked = max(mostTracked, tracked)
                mostHistory = max(mostHistory, history)
                if tracked > tableCapacity || history > historyCapacity { overflows += 1 }
            }
        }
        #expect(events > 100_000)
        #expect(advertisers.count >= 50, "only \(advertisers.count) advertisers")
        #expect(trackedAdvertisers.count > tableCapacity, "the crowd must overflow the presence table")
        #expect(overflows == 0)
        #expect(mostTracked == tableCapacity)
        #expect(monitor.presence.evictedCount > 0)
        #expect(monitor.presence.capacity == tableCapacity)
        #expect(mostHistory <= historyCapacity && monitor.trip.speedHistoryCapacity == historyCapacity)
        // Strangers make room for each other; nothing was refused for want of space.
        #expect(monitor.presence.refusedCount == 0)
    }
}
