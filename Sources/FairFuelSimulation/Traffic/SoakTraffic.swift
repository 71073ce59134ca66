import FairFuelCore
import FairFuelLink
import FairFuelParsers
import RealModule

/// The MCU's side of a long day in the car, generated as it goes with constant memory:
/// heartbeats, GNSS epochs the whole time (no fix in the garage, a stationary fix when
/// parked outside, a moving one on the road), a crowd of BLE advertisers in range that
/// includes the family's fobs, and the family's trips (arrive, tap, ignition, drive, leave).
///
/// For the soak benchmark: `generate(untilMs:_:)` hands out serial reads in time order,
/// a day at a time holding only that day's seven trips. Deterministic for a given seed.
/// A front-end of `MCUTrafficGenerator`, which frames the messages and cuts the reads.
public struct SoakTraffic {
    public struct Options: Sendable {
        public var durationMs: Int64 = 86_400_000
        public var nmeaEpochsPerSecond = 10
        /// Advertisers heard, the family's fobs included.
        public var advertisersInRange = 20
        public var advertisementsPerSecond = 50
        /// Largest bytes one serial read returns (a USB full-speed packet is 64).
        public var readChunkBytes = 64
        /// The host polls the port this often; a read holds what arrived in between.
        public var pollIntervalMs: Int64 = 5
        /// UTC date and time at capture time zero (local time is UTC).
        public var startYear = 2026, startMonth = 11, startDay = 20
        public var startMillisecondsOfDay: Int64 = 0
        public var day: [SoakTripPlan] = SoakTripPlan.standardDay
        /// The car stands in a garage (the receiver reports no fix) before this time of day...
        public var garageUntilMillisecondsOfDay: Int64 = (7 * 60 + 20) * 60_000
        /// ...and from this one on.
        public var garageFromMillisecondsOfDay: Int64 = 22 * 3_600_000
        /// Each arrival moves by up to this much either way, drawn per day.
        public var jitterMs: Int64 = 300_000
        public var seed: UInt64 = 1

        public init() {}
    }

    /// What was generated so far.
    public struct Statistics: Sendable, Equatable {
        public var reads = 0
        public var bytes = 0
        public var frames = 0
        public var nmeaSentences = 0
        public var advertisements = 0
        public var heartbeats = 0
        public var taps = 0
        public var tripsDriven = 0
        /// Time on the road (GNSS epochs while moving).
        public var drivingMs: Int64 = 0

        public init() {}
    }

    private enum ActionKind {
        case arrive, tap, ignitionOn, driveStart, driveEnd, ignitionOff, leave
    }

    private struct Action {
        var timeMs: Int64
        var trip: Int
        var kind: ActionKind
    }

    private enum DrivePhase {
        case accelerate, cruise, slowDown, brakeToStop, stand
    }

    private struct Fob {
        var driver: SoakDriver
        var data: [UInt8]
        var address: BLEAddress
        var inCabin = false
    }

    public let options: Options
    /// What was generated so far.
    public var statistics: Statistics {
        var statistics = counts
        statistics.frames = generator.statistics.frames
        statistics.reads = generator.statistics.reads
        statistics.bytes = generator.statistics.bytes
        return statistics
    }
    private var counts = Statistics()
    /// Everything before this capture time has been handed out.
    public private(set) var generatedUntilMs: Int64 = 0
    /// The time of the last event played.
    private var now: Int64 = 0

    private static let bootUptimeMs: Int64 = 12_000
    private var generator: MCUTrafficGenerator
    private var strangers: [CrowdAdvertiser]
    private var fobs: [Fob]
    private var random: SplitMix
    private var motionRandom: SplitMix

    private var nextHeartbeatMs: Int64 = 1_000
    private var nextEpochMs: Int64 = 200
    private var epochIndex: Int64 = 0
    private var advertisementIndex: Int64 = 0
    private var nextAdvertisementMs: Int64 = 7
    private var helloSent = false

    private var dayIndex = -1
    private var dayTrips: [SoakTrip] = []
    private var actions: [Action] = []
    private var actionIndex = 0

    private var ignition = false
    private var moving = false
    private var latitude = 48.137_100
    private var longitude = 11.575_400
    private var metersPerDegreeLongitude = 111_320 * 0.6662
    private var speed = 0.0
    private var heading = 0.0
    private var phase = DrivePhase.stand
    private var phaseUntilMs: Int64 = 0
    private var targetSpeed = 0.0
    private var driveEndMs: Int64 = 0
    private var civilDay = -1
    private var civilDate = (year: 2026, month: 11, day: 20)

    public init(options: Options) {
        self.options = options
        generator = MCUTrafficGenerator(readChunkBytes: options.readChunkBytes, pollIntervalMs: options.pollIntervalMs)
        random = SplitMix(seed: options.seed ^ 0x50AC)
        motionRandom = SplitMix(seed: options.seed ^ 0x0D21_7E)
        var crowdRandom = SplitMix(seed: options.seed)
        fobs = SoakDriver.family.enumerated().map { index, driver in
            Fob(driver: driver, data: driver.advertisingData,
                address: BLEAddress(rawValue: 0xC0_50_AC_00_00_00 | UInt64(index + 1)))
        }
        let strangerCount = max(0, options.advertisersInRange - fobs.count)
        // Index 0 of the crowd is another family's iBeacon: keep them from index 1.
        strangers = (0..<strangerCount).map { CrowdAdvertiser(index: $0 + 1, random: &crowdRandom) }
        heading = motionRandom.uniform(0, 2 * Double.pi)
    }

    public var isFinished: Bool { generatedUntilMs >= options.durationMs && generator.isDrained }

    /// The trips of day `index` (day 0 holds capture time zero), in capture milliseconds.
    public func trips(day index: Int) -> [SoakTrip] {
        var dayRandom = SplitMix(seed: options.seed ^ (UInt64(index + 1) &* 0xD1B5_4A32_D192_ED03))
        let midnight = Int64(index) * 86_400_000 - options.startMillisecondsOfDay
        return options.day.map { plan in
            let jitter = options.jitterMs > 0 ? Int64(dayRandom.next() % UInt64(2 * options.jitterMs + 1)) - options.jitterMs : 0
            let arrival = midnight + plan.arrivalMsOfDay + jitter
            let driveStart = arrival + SoakTrip.driveAfterMs
            let driveEnd = driveStart + plan.drivingMs
            return SoakTrip(
                driver: plan.driver % SoakDriver.family.count, arrivalMs: arrival, tapMs: arrival + SoakTrip.tapAfterMs,
                driveStartMs: driveStart, driveEndMs: driveEnd, leaveMs: driveEnd + SoakTrip.leaveAfterMs)
        }
    }

    /// Every trip whose driver arrives within the duration (for tests and summaries).
    public func plannedTrips() -> [SoakTrip] {
        let days = Int((options.durationMs + options.startMillisecondsOfDay) / 86_400_000)
        return (0...days).flatMap { trips(day: $0) }.filter { $0.arrivalMs >= 0 && $0.arrivalMs < options.durationMs }
    }

    /// Plays everything before capture time `untilMs` (capped at the duration) and hands each
    /// serial read to `read`; the slice is valid only during the call.
    public mutating func generate(untilMs: Int64, _ read: (_ timeMs: UInt64, _ bytes: ArraySlice<UInt8>) -> Void) {
        let limit = min(untilMs, options.durationMs)
        if !helloSent {
            helloSent = true
            send(generator.hello(uptimeMs: uptime(0)), at: 0, read)
            send(.log(MCULog(level: .info, text: "soak: scanner on, GNSS at \(options.nmeaEpochsPerSecond) Hz")), at: 0, read)
        }
        while true {
            refillActions(from: now)
            let actionTime = actionIndex < actions.count ? actions[actionIndex].timeMs : Int64.max
            let time = min(actionTime, nextHeartbeatMs, nextEpochMs, nextAdvertisementMs)
            if time >= limit { break }
            now = time
            if time == actionTime {
                let action = actions[actionIndex]
                actionIndex += 1
                perform(action, read)
            } else if time == nextHeartbeatMs {
                heartbeat(at: time, read)
                nextHeartbeatMs += 1_000
            } else if time == nextEpochMs {
                epoch(at: time, read)
                epochIndex += 1
                nextEpochMs = 200 + epochIndex * 1_000 / Int64(max(1, options.nmeaEpochsPerSecond))
            } else {
                advertise(at: time, read)
                advertisementIndex += 1
                nextAdvertisementMs = 7 + advertisementIndex * 1_000 / Int64(max(1, options.advertisementsPerSecond))
            }
        }
        generatedUntilMs = max(generatedUntilMs, limit)
        if generatedUntilMs >= options.durationMs { generator.flush(read) }
    }

    // MARK: the day's script

    private mutating func refillActions(from time: Int64) {
        guard actionIndex >= actions.count else { return }
        // Days start at local midnight; move to the day that holds `time`, or the next one.
        let wanted = Int((time + options.startMillisecondsOfDay) / 86_400_000)
        let next = max(dayIndex + 1, wanted)
        guard Int64(next) * 86_400_000 - options.startMillisecondsOfDay < options.durationMs else {
            actions.removeAll(keepingCapacity: true)
            actionIndex = 0
            return
        }
        dayIndex = next
        dayTrips = trips(day: next)
        actions.removeAll(keepingCapacity: true)
        actionIndex = 0
        for (index, trip) in dayTrips.enumerated() where trip.arrivalMs >= time {
            let steps: [(Int64, ActionKind)] = [
                (trip.arrivalMs, .arrive), (trip.tapMs, .tap), (trip.arrivalMs + SoakTrip.ignitionOnAfterMs, .ignitionOn),
                (trip.driveStartMs, .driveStart), (trip.driveEndMs, .driveEnd),
                (trip.driveEndMs + SoakTrip.ignitionOffAfterMs, .ignitionOff), (trip.leaveMs, .leave),
            ]
            for (at, kind) in steps { actions.append(Action(timeMs: at, trip: index, kind: kind)) }
        }
        if actions.isEmpty {
            // A day without trips still needs a marker to move on to the next day.
            actions.append(Action(timeMs: Int64(next + 1) * 86_400_000 - options.startMillisecondsOfDay, trip: -1, kind: .arrive))
        }
    }

    private mutating func perform(_ action: Action, _ read: (UInt64, ArraySlice<UInt8>) -> Void) {
        guard action.trip >= 0 else { return }
        let trip = dayTrips[action.trip]
        switch action.kind {
        case .arrive:
            fobs[trip.driver].inCabin = true
        case .tap:
            counts.taps += 1
            send(MCUTrafficGenerator.tag(uptimeMs: uptime(action.timeMs), uid: fobs[trip.driver].driver.tagUID[...]), at: action.timeMs, read)
        case .ignitionOn, .ignitionOff:
            ignition = action.kind == .ignitionOn
            send(MCUTrafficGenerator.power(uptimeMs: uptime(action.timeMs), ignitionOn: ignition, supplyMillivolts: supply()),
                at: action.timeMs, read)
        case .driveStart:
            moving = true
            counts.tripsDriven += 1
            driveEndMs = trip.driveEndMs
            phase = .stand
            phaseUntilMs = action.timeMs
            metersPerDegreeLongitude = 111_320 * Double.cos(latitude * Double.pi / 180)
        case .driveEnd:
            moving = false
            speed = 0
        case .leave:
            fobs[trip.driver].inCabin = false
        }
    }

    // MARK: periodic frames

    private mutating func heartbeat(at time: Int64, _ read: (UInt64, ArraySlice<UInt8>) -> Void) {
        counts.heartbeats += 1
        send(MCUTrafficGenerator.heartbeat(uptimeMs: uptime(time), supplyMillivolts: supply(), ignitionOn: ignition), at: time, read)
    }

    private mutating func epoch(at time: Int64, _ read: (UInt64, ArraySlice<UInt8>) -> Void) {
        let epochMs = Int64(1_000 / max(1, options.nmeaEpochsPerSecond))
        if moving {
            drive(at: time, seconds: Double(epochMs) / 1_000)
            counts.drivingMs += epochMs
        }
        let clock = options.startMillisecondsOfDay + time
        let day = Int(clock / 86_400_000)
        let msOfDay = clock % 86_400_000
        if day != civilDay {
            civilDay = day
            let date = UTCDate(daysSinceEpoch: startDaysSinceEpoch + Int64(day))
            civilDate = (date.year, date.month, date.day)
        }
        let withSummary = time % 1_000 == 200 % 1_000
        let mcuTime = uptime(time)
        if msOfDay < options.garageUntilMillisecondsOfDay || msOfDay >= options.garageFromMillisecondsOfDay {
            sendNMEA(NMEASentenceWriter.rmcWithoutFix(
                utcMillisecondsOfDay: msOfDay, year: civilDate.year, month: civilDate.month, day: civilDate.day), mcuTime, at: time, read)
            sendNMEA(NMEASentenceWriter.sentence("GPGGA,\(NMEASentenceWriter.time(msOfDay)),,,,,0,00,99.9,,,,,,"), mcuTime, at: time, read)
            if withSummary {
                sendNMEA(NMEASentenceWriter.sentence("GPGSA,A,1,,,,,,,,,,,,,99.9,99.9,99.9"), mcuTime, at: time, read)
            }
            return
        }
        // About a metre of receiver noise on every fix, moving or not.
        let reportedLatitude = latitude + random.uniform(-1, 1) / 111_320
        let reportedLongitude = longitude + random.uniform(-1, 1) / metersPerDegreeLongitude
        let reportedSpeed = moving ? max(0, speed + random.uniform(-0.1, 0.1)) : random.uniform(0, 0.08)
        let course = (heading * 180 / Double.pi).truncatingRemainder(dividingBy: 360)
        sendNMEA(NMEASentenceWriter.rmc(
            utcMillisecondsOfDay: msOfDay, year: civilDate.year, month: civilDate.month, day: civilDate.day,
            latitude: reportedLatitude, longitude: reportedLongitude, speedMetersPerSecond: reportedSpeed,
            courseDegrees: course < 0 ? course + 360 : course), mcuTime, at: time, read)
        sendNMEA(NMEASentenceWriter.gga(
            utcMillisecondsOfDay: msOfDay, latitude: reportedLatitude, longitude: reportedLongitude, satellites: 9,
            hdop: 0.9, altitudeMeters: 519.6), mcuTime, at: time, read)
        if withSummary {
            sendNMEA(NMEASentenceWriter.gsa(satellites: [2, 5, 7, 13, 15, 20, 24, 28, 30], pdop: 1.6, hdop: 0.9, vdop: 1.3),
                mcuTime, at: time, read)
        }
    }

    private mutating func advertise(at time: Int64, _ read: (UInt64, ArraySlice<UInt8>) -> Void) {
        counts.advertisements += 1
        let total = fobs.count + strangers.count
        let slot = Int(advertisementIndex % Int64(max(1, total)))
        let jitter = Int(random.next() % 9) - 4
        let report: BLEAdvertisementReport
        if slot < fobs.count {
            // In the cabin a fob is loud; in the house it is heard faintly, below the absent threshold.
            let rssi = (fobs[slot].inCabin ? -60 : -97) + jitter
            report = BLEAdvertisementReport(
                mcuTimeMs: uptime(time), address: fobs[slot].address, addressType: .random,
                advertisingType: .nonConnectableUndirected, rssiDBm: Int8(clamping: rssi), data: fobs[slot].data[...])
        } else {
            let stranger = strangers[slot - fobs.count]
            report = BLEAdvertisementReport(
                mcuTimeMs: uptime(time), address: stranger.address, addressType: stranger.addressType,
                advertisingType: stranger.advertisingType, rssiDBm: Int8(clamping: stranger.rssiDBm + jitter),
                data: stranger.data[...])
        }
        send(.bleAdvertisement(report), at: time, read)
    }

    // MARK: motion

    /// Town and country driving: accelerate, cruise, slow down, stop at lights, brake to a
    /// standstill before the destination.
    private mutating func drive(at time: Int64, seconds dt: Double) {
        if time >= driveEndMs - 20_000 {
            speed = max(0, speed - 2.0 * dt)
        } else {
            switch phase {
            case .stand:
                if time >= phaseUntilMs {
                    targetSpeed = motionRandom.uniform(8, 27)
                    phase = .accelerate
                }
            case .accelerate:
                speed = min(targetSpeed, speed + 1.6 * dt)
                if speed >= targetSpeed {
                    phase = .cruise
                    phaseUntilMs = time + Int64(motionRandom.uniform(20_000, 120_000))
                }
            case .cruise:
                speed = max(0, speed + motionRandom.uniform(-0.05, 0.05))
                heading += motionRandom.uniform(-0.004, 0.004)
                if time >= phaseUntilMs {
                    if motionRandom.chance(0.35) {
                        phase = .brakeToStop
                    } else {
                        targetSpeed = motionRandom.uniform(8, 27)
                        phase = targetSpeed > speed ? .accelerate : .slowDown
                    }
                }
            case .slowDown:
                speed = max(targetSpeed, speed - 1.4 * dt)
                if speed <= targetSpeed {
                    phase = .cruise
                    phaseUntilMs = time + Int64(motionRandom.uniform(20_000, 120_000))
                }
            case .brakeToStop:
                speed = max(0, speed - 1.9 * dt)
                if speed == 0 {
                    phase = .stand
                    phaseUntilMs = time + Int64(motionRandom.uniform(8_000, 45_000))
                    heading += motionRandom.uniform(-1.6, 1.6)
                }
            }
        }
        latitude += speed * dt * Double.cos(heading) / 111_320
        longitude += speed * dt * Double.sin(heading) / metersPerDegreeLongitude
    }

    // MARK: framing and reads

    private mutating func sendNMEA(_ sentence: String, _ mcuTime: UInt32, at time: Int64, _ read: (UInt64, ArraySlice<UInt8>) -> Void) {
        counts.nmeaSentences += 1
        send(MCUTrafficGenerator.nmea(uptimeMs: mcuTime, sentence), at: time, read)
    }

    private mutating func send(_ message: LinkMessage, at time: Int64, _ read: (UInt64, ArraySlice<UInt8>) -> Void) {
        generator.send(message, at: time, read)
    }

    private func uptime(_ time: Int64) -> UInt32 { UInt32(truncatingIfNeeded: Self.bootUptimeMs + time) }

    private mutating func supply() -> UInt16 { UInt16((ignition ? 13_900 : 12_550) + Int(random.next() % 120)) }

    /// The first simulated day, days since 1970-01-01 (the parsers' calendar arithmetic).
    var startDaysSinceEpoch: Int64 {
        guard let date = UTCDate(year: options.startYear, month: options.startMonth, day: options.startDay) else {
            preconditionFailure("soak start date \(options.startYear)-\(options.startMonth)-\(options.startDay) does not exist")
        }
        return date.daysSinceEpoch
    }
}
