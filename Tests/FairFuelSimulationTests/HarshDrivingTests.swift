@testable import FairFuelSimulation
import FairFuelCore
import FairFuelDomain
import FairFuelParsers
import Testing

/// The virtual MCU's drives through the domain's harsh-event detector: a simulated urban trip
/// must brake and accelerate like a car (a few harsh events per 10 km, both kinds), not fire a
/// harsh braking at every red light.
@Suite struct HarshDrivingTests {
    struct Counts {
        var meters = 0.0
        var accelerations = 0
        var brakings = 0
        var perKilometer: Double { Double(accelerations + brakings) / max(meters / 1000, 0.001) }
    }

    /// One generated trip, sent as the GNSS model's NMEA at `rateHz`, parsed and fed to a
    /// `DrivingMonitor` with an open session; link time is when each sentence's last byte is in.
    static func drive(_ kind: SimRouteKind, lengthMeters: Double, seed: UInt64, rateHz: Int) throws -> Counts {
        let track = RouteTests.route(kind, length: lengthMeters, seed: seed)
        var settings = GNSSSettings()
        settings.rateHz = rateHz
        var gnss = GNSSReceiverModel(settings: settings, seed: seed)
        var monitor = DrivingMonitor(
            configuration: MonitorConfiguration(), directory: DriverDirectory(),
            fuel: FuelEstimator(model: FuelModel(profile: try VehicleFuelProfile())))
        monitor.resume(driver: DriverID(1), startedAt: LinkMilliseconds(0))
        var decoder = NMEAFixDecoder()
        let startUTC = UTCTimestamp(date: UTCDate(year: 2025, month: 9, day: 14)!, time: UTCTimeOfDay(hour: 8, minute: 0, second: 0)!)
        // The car stands with a fix for 10 s before moving off, as in a planned trip; by then the
        // fix assembler has learned the receiver's cycle and emits each fix when its epoch ends.
        let moveOff: Int64 = 10_000
        var time: Int64 = 0
        while time <= moveOff + track.durationMs {
            let sentences = gnss.epoch(
                utcMs: startUTC.millisecondsSinceEpoch + time, simMs: time, state: track.state(at: time - moveOff), hasFix: true)
            for (delay, sentence) in sentences {
                let at = LinkMilliseconds(time + delay)
                decoder.feed(sentence: ArraySlice(Array(sentence.utf8))) { fix in
                    monitor.handle(.fix(fix, at: at)) { _ in }
                }
            }
            time += gnss.epochMs
        }
        decoder.finish { fix in monitor.handle(.fix(fix, at: LinkMilliseconds(time))) { _ in } }
        let metrics = try #require(monitor.currentTrip)
        return Counts(meters: metrics.distance.value, accelerations: metrics.harshAccelerations, brakings: metrics.harshBrakings)
    }

    static func fleet(_ kind: SimRouteKind, rateHz: Int) throws -> Counts {
        var total = Counts()
        for seed in UInt64(1)...30 {
            let trip = try drive(kind, lengthMeters: 2500, seed: seed, rateHz: rateHz)
            #expect(trip.brakings <= 3, "seed \(seed): \(trip.brakings) harsh brakings in \(Int(trip.meters)) m")
            total.meters += trip.meters
            total.accelerations += trip.accelerations
            total.brakings += trip.brakings
        }
        print("\(kind) at \(rateHz) Hz: \(Int(total.meters)) m, \(total.accelerations) harsh accelerations, \(total.brakings) harsh brakings")
        return total
    }

    @Test(arguments: [1, 10])
    func urbanTripsHaveAFewHarshEventsOfBothKinds(rateHz: Int) throws {
        let total = try Self.fleet(.urban, rateHz: rateHz)
        #expect(total.meters > 70_000)
        // Real urban driving: well under one harsh event per km on average, and both kinds occur.
        #expect(total.perKilometer < 0.5, "\(total.perKilometer) harsh events per km")
        #expect(total.brakings >= 1)
        #expect(total.accelerations >= 1)
    }
}
