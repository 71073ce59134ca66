@testable import FairFuelSimulation
import FairFuelCore
import FairFuelLink
import FairFuelParsers
import Testing

/// The streaming soak generator: rates, the day's script, determinism, and that
/// cutting the generation into slices never changes the stream.
@Suite struct SoakTrafficTests {
    /// Everything `traffic` generates up to `untilMs`, in slices of `stepMs`.
    static func bytes(_ traffic: inout SoakTraffic, untilMs: Int64, stepMs: Int64) -> [UInt8] {
        var out: [UInt8] = []
        var time: Int64 = 0
        while time < untilMs {
            time = min(untilMs, time + stepMs)
            traffic.generate(untilMs: time) { _, bytes in out += bytes }
        }
        return out
    }

    static func options(minutes: Int64, startHour: Int64 = 10) -> SoakTraffic.Options {
        var options = SoakTraffic.Options()
        options.durationMs = minutes * 60_000
        options.startMillisecondsOfDay = startHour * 3_600_000
        return options
    }

    @Test func aMinuteHasTheIssuesRates() throws {
        var traffic = SoakTraffic(options: Self.options(minutes: 1))
        var decoder = FrameDecoder(sender: .mcu)
        var nmea = NMEADecoder()
        var advertisers = Set<UInt64>()
        var kinds: [String: Int] = [:]
        var lastTime: UInt64 = 0
        var readsInOrder = true
        traffic.generate(untilMs: 60_000) { time, bytes in
            readsInOrder = readsInOrder && time >= lastTime && bytes.count <= 64
            lastTime = time
            decoder.decode(bytes) { output in
                guard case let .frame(frame) = output else { return }
                switch frame.message {
                case let .nmea(report):
                    kinds["nmea", default: 0] += 1
                    if nmea.decode(report.sentence) == nil { kinds["bad nmea", default: 0] += 1 }
                case let .bleAdvertisement(report):
                    kinds["adv", default: 0] += 1
                    advertisers.insert(report.address.rawValue)
                case .heartbeat: kinds["heartbeat", default: 0] += 1
                case .hello: kinds["hello", default: 0] += 1
                default: kinds["other", default: 0] += 1
                }
            }
        }
        #expect(traffic.isFinished)
        #expect(readsInOrder)
        #expect(decoder.counters.errorTotal == 0)
        #expect(decoder.counters.frames == UInt64(traffic.statistics.frames))
        // 10 Hz RMC + GGA from 200 ms on (598 epochs in the first minute), and a GSA each second.
        #expect(kinds["nmea"] == 598 * 2 + 60)
        #expect(kinds["bad nmea"] == nil)
        #expect(kinds["adv"] == 3_000)
        #expect(advertisers.count == 20)
        #expect(kinds["heartbeat"] == 59)
        #expect(kinds["hello"] == 1)
    }

    @Test func slicingDoesNotChangeTheStream() {
        var whole = SoakTraffic(options: Self.options(minutes: 12, startHour: 7))
        var sliced = SoakTraffic(options: Self.options(minutes: 12, startHour: 7))
        let a = Self.bytes(&whole, untilMs: 12 * 60_000, stepMs: 12 * 60_000)
        let b = Self.bytes(&sliced, untilMs: 12 * 60_000, stepMs: 7_777)
        #expect(a.count > 1_000_000)
        #expect(a == b)
        #expect(whole.statistics == sliced.statistics)
    }

    @Test func theSeedDecidesTheStream() {
        var one = SoakTraffic(options: Self.options(minutes: 1))
        var again = SoakTraffic(options: Self.options(minutes: 1))
        var otherOptions = Self.options(minutes: 1)
        otherOptions.seed = 2
        var other = SoakTraffic(options: otherOptions)
        let a = Self.bytes(&one, untilMs: 60_000, stepMs: 60_000)
        #expect(a == Self.bytes(&again, untilMs: 60_000, stepMs: 60_000))
        #expect(a != Self.bytes(&other, untilMs: 60_000, stepMs: 60_000))
    }

    @Test func theDayHasSevenTripsThatNeverOverlap() {
        var options = SoakTraffic.Options()
        options.durationMs = 3 * 86_400_000
        let traffic = SoakTraffic(options: options)
        let trips = traffic.plannedTrips()
        #expect(trips.count == 21)
        for (earlier, later) in zip(trips, trips.dropFirst()) {
            #expect(earlier.leaveMs < later.arrivalMs)
        }
        // The long drive covers 13:00 to 15:00 every day, whatever the jitter.
        for day in 0..<3 {
            let long = traffic.trips(day: day)[3]
            let midnight = Int64(day) * 86_400_000
            #expect(long.driveStartMs <= midnight + 13 * 3_600_000)
            #expect(long.driveEndMs >= midnight + 15 * 3_600_000)
        }
    }

    @Test func aTripIsTappedDrivenAndLeft() {
        var options = Self.options(minutes: 10)
        options.jitterMs = 0
        options.day = [SoakTripPlan(driver: 1, arrivalMsOfDay: 10 * 3_600_000 + 60_000, drivingMs: 180_000)]
        var traffic = SoakTraffic(options: options)
        var decoder = FrameDecoder(sender: .mcu)
        var taps: [(UInt64, [UInt8])] = []
        var ignition: [(UInt64, Bool)] = []
        var fastest = 0.0
        var nmea = NMEADecoder()
        traffic.generate(untilMs: options.durationMs) { time, bytes in
            decoder.decode(bytes) { output in
                guard case let .frame(frame) = output else { return }
                switch frame.message {
                case let .nfcTag(tag): taps.append((time, Array(tag.uid)))
                case let .power(power): ignition.append((time, power.ignitionOn))
                case let .nmea(report):
                    if case let .rmc(rmc)? = nmea.decode(report.sentence), let speed = rmc.speed { fastest = max(fastest, speed.value) }
                default: break
                }
            }
        }
        #expect(taps.count == 1)
        #expect(taps.first?.0 == 80_000)
        #expect(taps.first?.1 == SoakDriver.family[1].tagUID)
        #expect(ignition.map(\.1) == [true, false])
        #expect(traffic.statistics.tripsDriven == 1)
        #expect(traffic.statistics.drivingMs == 180_000)
        #expect(fastest > 8)
    }

    @Test func theGarageHasNoFix() {
        var traffic = SoakTraffic(options: Self.options(minutes: 1, startHour: 3))
        var decoder = FrameDecoder(sender: .mcu)
        var nmea = NMEADecoder()
        var valid = 0
        var invalid = 0
        traffic.generate(untilMs: 60_000) { _, bytes in
            decoder.decode(bytes) { output in
                guard case let .frame(frame) = output, case let .nmea(report) = frame.message else { return }
                guard case let .rmc(rmc)? = nmea.decode(report.sentence) else { return }
                if rmc.status == .active { valid += 1 } else { invalid += 1 }
            }
        }
        #expect(valid == 0)
        #expect(invalid == 598)
    }

    @Test func daysStartAtTheConfiguredDate() {
        var options = SoakTraffic.Options()
        options.startYear = 2028
        options.startMonth = 2
        options.startDay = 29
        #expect(SoakTraffic(options: options).startDaysSinceEpoch == 21_243)
        #expect(SoakTraffic(options: SoakTraffic.Options()).startDaysSinceEpoch == 20_777)
    }

    @Test func theFamilysSpecsAreProvisioningSpecs() throws {
        for driver in SoakDriver.family {
            let identity = try BeaconIdentity(spec: driver.beaconSpec)
            let heard = BeaconIdentities(address: BLEAddress(rawValue: 0xC0_50_AC_00_00_01), addressType: .random, data: driver.advertisingData[...])
            #expect(heard.contains(identity), "\(driver.name)")
            #expect(try TagUID(parsing: driver.tagText).elementsEqual(driver.tagUID))
        }
    }
}
