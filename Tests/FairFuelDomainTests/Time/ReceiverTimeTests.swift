import FairFuelCore
import FairFuelDomain
import FairFuelParsers
import Testing

/// Intervals, speeds and accelerations on the receiver's clock where it has one; its
/// restarts, jumps and leap seconds never fake a harsh event or a trip out of time.
@Suite("Receiver time")
struct ReceiverTimeTests {
    /// 2026-03-02T07:00:00Z.
    static let morningUTCMs: Int64 = 1_772_434_800_000

    static func fix(second: Double, speed: Double, utcMs: Int64?, mode: GNSSMode = .fix3D) -> GNSSFix {
        // Driving north from a fixed point with the distance the speeds explain.
        GNSSFix(
            utc: utcMs.map { UTCTimestamp(millisecondsSinceEpoch: $0) }, latitude: 48.0 + second * 12 / 111_195,
            longitude: 11.0, speed: MetersPerSecond(speed), mode: mode, satellitesUsed: 9, hdop: 0.9)
    }

    /// Harsh events a meter finds in `fixes` received at the given link times.
    static func harshEvents(_ fixes: [(GNSSFix, Int64)]) -> (accelerations: Int, brakings: Int) {
        var tracker = MotionTracker(thresholds: MotionThresholds(), sessionThresholds: SessionThresholds())
        var meter = TripMeter(thresholds: MotionThresholds(), stoppedBelowMetersPerSecond: 1)
        meter.start(at: LinkMilliseconds(0))
        for (fix, link) in fixes {
            if let step = tracker.accept(fix, at: LinkMilliseconds(link)) { meter.add(step) }
        }
        return (meter.metrics.harshAccelerations, meter.metrics.harshBrakings)
    }

    @Test("epochs that arrive in a burst keep the receiver's spacing: a firm but ordinary acceleration stays ordinary")
    func burstOfLateEpochs() {
        // 10 -> 25 m/s over 10 s (1.5 m/s², under the 2.2 threshold); after a stall of the
        // serial link the epochs from the fourth on arrive 100 ms apart.
        func epochs(dated: Bool) -> [(GNSSFix, Int64)] {
            (0...10).map { second in
                let link = second < 3 ? Int64(second) * 1000 : 2_600 + Int64(second - 3) * 100
                return (Self.fix(second: Double(second), speed: 10 + 1.5 * Double(second), utcMs: dated ? Self.morningUTCMs + Int64(second) * 1000 : nil), link)
            }
        }
        #expect(Self.harshEvents(epochs(dated: true)).accelerations == 0)
        // Without the receiver's clock (no date in its sentences), link time is all there is:
        // the same burst reads as harsh. The documented fallback, and why the receiver's time wins.
        #expect(Self.harshEvents(epochs(dated: false)).accelerations == 1)
    }

    @Test("a receiver clock that runs back, repeats or leaps breaks the speed trace: no harsh event across it")
    func receiverClockSteps() {
        for step: Int64 in [-5_000, 0, 3_600_000] {
            var fixes: [(GNSSFix, Int64)] = []
            for second in 0..<5 {
                fixes.append((Self.fix(second: Double(second), speed: 5, utcMs: Self.morningUTCMs + Int64(second) * 1000), Int64(second) * 1000))
            }
            // One second later on the link, the receiver's clock stepped and the speed reads 14 m/s.
            fixes.append((Self.fix(second: 5.5, speed: 14, utcMs: Self.morningUTCMs + 4_000 + step), 5_000))
            #expect(Self.harshEvents(fixes).accelerations == 0, "clock step \(step) ms")
        }
        // Control: the same jump in speed on a steady clock is a harsh acceleration.
        var steady: [(GNSSFix, Int64)] = []
        for second in 0..<5 {
            steady.append((Self.fix(second: Double(second), speed: 5, utcMs: Self.morningUTCMs + Int64(second) * 1000), Int64(second) * 1000))
        }
        steady.append((Self.fix(second: 5.5, speed: 14, utcMs: Self.morningUTCMs + 5_000), 5_000))
        #expect(Self.harshEvents(steady).accelerations == 1)
    }

    @Test("a GNSS restart while moving (epochs without a fix) never fakes a harsh acceleration")
    func gnssRestartWhileMoving() {
        var fixes: [(GNSSFix, Int64)] = []
        for second in 0..<5 {
            fixes.append((Self.fix(second: Double(second), speed: 15, utcMs: Self.morningUTCMs + Int64(second) * 1000), Int64(second) * 1000))
        }
        // The receiver restarts: two epochs without a fix, then a first fix whose speed still reads 0.
        fixes.append((Self.fix(second: 5, speed: 0, utcMs: nil, mode: .noFix), 5_000))
        fixes.append((Self.fix(second: 6, speed: 0, utcMs: nil, mode: .noFix), 6_000))
        fixes.append((Self.fix(second: 7, speed: 0, utcMs: Self.morningUTCMs + 7_000), 7_000))
        fixes.append((Self.fix(second: 8, speed: 15, utcMs: Self.morningUTCMs + 8_000), 8_000))
        fixes.append((Self.fix(second: 9, speed: 15, utcMs: Self.morningUTCMs + 9_000), 9_000))
        let events = Self.harshEvents(fixes)
        #expect(events.brakings == 0)
        #expect(events.accelerations == 0)
    }

    @Test("an epoch that lost its RMC (a speed derived from positions) is never compared with the receiver's speeds")
    func derivedSpeedAmongReceiverSpeeds() {
        // Firm braking from 30 m/s at 1.8 m/s² (under 2.2). The epoch at 5 s lost its RMC on the
        // line: its speed is derived from positions, the average over the second before, 0.9 m/s
        // above the receiver's own.
        func epochs(derivedMarked: Bool) -> [(GNSSFix, Int64)] {
            (0...10).map { second in
                let speed = 30 - 1.8 * Double(second)
                var fix = Self.fix(
                    second: Double(second), speed: second == 5 ? speed + 0.9 : speed, utcMs: Self.morningUTCMs + Int64(second) * 1000)
                fix.motionIsDerived = second == 5 && derivedMarked
                return (fix, Int64(second) * 1000)
            }
        }
        let events = Self.harshEvents(epochs(derivedMarked: true))
        #expect(events.brakings == 0 && events.accelerations == 0)
        // Control: the same speeds all taken as the receiver's read as a harsh braking.
        #expect(Self.harshEvents(epochs(derivedMarked: false)).brakings == 1)
    }

    @Test("an epoch lost whole breaks the speed trace: no acceleration is measured across it")
    func missingEpoch() {
        // 20 m/s, then 14.6 m/s two seconds later: 2.7 m/s², harsh on one trace.
        func epochs(intervalMs: Int64, skipping skipped: Int?) -> [(GNSSFix, Int64)] {
            (0...8).filter { $0 != skipped }.map { index in
                let ms = Int64(index) * intervalMs
                let speed = Int64(index) * intervalMs < 6_000 ? 20.0 : 14.6
                return (Self.fix(second: Double(ms) / 1000, speed: speed, utcMs: Self.morningUTCMs + ms), ms)
            }
        }
        // At 1 Hz with the epoch at 5 s lost, the 2 s step spans a missing epoch: no event.
        #expect(Self.harshEvents(epochs(intervalMs: 1_000, skipping: 5)).brakings == 0)
        // Control: a 0.5 Hz receiver's 2 s steps miss nothing, and the same change is harsh.
        #expect(Self.harshEvents(epochs(intervalMs: 2_000, skipping: nil)).brakings == 1)
    }

    @Test("a leap second (23:59:60) gives no negative or zero interval and no harsh event")
    func leapSecond() {
        let midnight: Int64 = 1_798_761_600_000  // 2027-01-01T00:00:00Z
        var fixes: [(GNSSFix, Int64)] = []
        // 23:59:58, 23:59:59, 23:59:60 (stored as the next 00:00:00), 00:00:00, 00:00:01.
        let receiver: [Int64] = [midnight - 2_000, midnight - 1_000, midnight, midnight, midnight + 1_000]
        for (index, utc) in receiver.enumerated() {
            fixes.append((Self.fix(second: Double(index), speed: index == 3 ? 16 : 12, utcMs: utc), Int64(index) * 1000))
        }
        #expect(Self.harshEvents(fixes).accelerations == 0)
    }

    // MARK: The UTC anchor

    static func dated(_ utcMs: Int64) -> GNSSFix {
        GNSSFix(utc: UTCTimestamp(millisecondsSinceEpoch: utcMs), latitude: 48, longitude: 11, speed: .zero, mode: .fix3D)
    }

    @Test("one epoch with a wrong date never moves the anchor; two that agree do")
    func anchorNeedsTwoAgreeingFixes() {
        var anchor = UTCAnchor()
        do { let reading = anchor.update(fix: Self.dated(Self.morningUTCMs), at: LinkMilliseconds(1_000)); #expect(reading == .moved) }
        let offset = anchor.offsetMs
        // A week-number rollover: 1024 weeks back, once.
        do { let reading = anchor.update(fix: Self.dated(Self.morningUTCMs + 1_000 - 1024 * 604_800_000), at: LinkMilliseconds(2_000)); #expect(reading != .moved) }
        do { let reading = anchor.update(fix: Self.dated(Self.morningUTCMs + 2_000), at: LinkMilliseconds(3_000)); #expect(reading != .moved) }
        #expect(anchor.offsetMs == offset)
        // The receiver's clock really stepped by a minute: confirmed by the next epoch.
        do { let reading = anchor.update(fix: Self.dated(Self.morningUTCMs + 63_000), at: LinkMilliseconds(4_000)); #expect(reading != .moved) }
        do { let reading = anchor.update(fix: Self.dated(Self.morningUTCMs + 64_000), at: LinkMilliseconds(5_000)); #expect(reading == .moved) }
        #expect(anchor.offsetMs == offset.map { $0 + 60_000 })
    }

    @Test("once anchored, a receiver time hours back or ahead of link time is a bad epoch, however many agree")
    func jumpsAreBadEpochs() {
        for stepMs: Int64 in [-7_200_000, -6_000, 7_200_000, -1024 * 604_800_000] {
            var anchor = UTCAnchor()
            #expect(anchor.update(fix: Self.dated(Self.morningUTCMs), at: LinkMilliseconds(1_000)) == .moved)
            for epoch in 1...5 {
                let link = 1_000 + Int64(epoch) * 1_000
                let reading = anchor.update(fix: Self.dated(Self.morningUTCMs + Int64(epoch) * 1_000 + stepMs), at: LinkMilliseconds(link))
                #expect(reading == .badEpoch(stepMs: stepMs, firstOfRun: epoch == 1), "step \(stepMs) ms, epoch \(epoch)")
            }
            #expect(anchor.offsetMs == Self.morningUTCMs - 1_000, "step \(stepMs) ms")
            #expect(anchor.badEpochCount == 5)
            // The receiver is right again: the anchor never moved.
            #expect(anchor.update(fix: Self.dated(Self.morningUTCMs + 6_000), at: LinkMilliseconds(7_000)) == .kept)
            // A later jump starts a new run.
            #expect(anchor.update(fix: Self.dated(Self.morningUTCMs + 7_000 + stepMs), at: LinkMilliseconds(8_000)) == .badEpoch(stepMs: stepMs, firstOfRun: true))
        }
    }

    @Test("a step back within a few seconds, or a receiver that holds its new time for 30 s, is believed")
    func heldTimeIsBelieved() {
        var anchor = UTCAnchor()
        #expect(anchor.update(fix: Self.dated(Self.morningUTCMs), at: LinkMilliseconds(0)) == .moved)
        // Three seconds back (a late serial buffer read, a leap second): the two-fix rule decides.
        #expect(anchor.update(fix: Self.dated(Self.morningUTCMs + 1_000 - 3_000), at: LinkMilliseconds(1_000)) == .kept)
        #expect(anchor.update(fix: Self.dated(Self.morningUTCMs + 2_000 - 3_000), at: LinkMilliseconds(2_000)) == .moved)
        #expect(anchor.offsetMs == Self.morningUTCMs - 3_000)
        // 18 s back, held: a receiver that learnt the leap seconds after its first fixes.
        var moved: Int64?
        for second: Int64 in 3...40 {
            let reading = anchor.update(fix: Self.dated(Self.morningUTCMs + second * 1_000 - 21_000), at: LinkMilliseconds(second * 1_000))
            if reading == .moved { moved = second; break }
            #expect(reading == .badEpoch(stepMs: -18_000, firstOfRun: second == 3))
        }
        #expect(moved == 33)
        #expect(anchor.offsetMs == Self.morningUTCMs - 21_000)
        #expect(anchor.badEpochCount == 30)
    }

    @Test("a date before 2020 (a receiver that lost its week number) is never an anchor")
    func datesBeforeTheProductAreIgnored() {
        var anchor = UTCAnchor()
        do { let reading = anchor.update(fix: Self.dated(Self.morningUTCMs - 1024 * 604_800_000), at: LinkMilliseconds(1_000)); #expect(reading != .moved) }
        #expect(anchor.offsetMs == nil)
    }

    @Test("after an MCU restart nothing is stamped until the receiver anchors link time again")
    func mcuRestartForgetsTheAnchor() throws {
        var monitor = DrivingMonitor(
            configuration: MonitorConfiguration(), directory: DriverDirectory(),
            fuel: FuelEstimator(model: FuelModel(profile: try VehicleFuelProfile())))
        var outputs: [DomainOutput] = []
        monitor.handle(.fix(Self.dated(Self.morningUTCMs), at: LinkMilliseconds(1_000))) { outputs.append($0) }
        #expect(monitor.utc.offsetMs == Self.morningUTCMs - 1_000)
        // A simulator started three days later; link time went on from the old MCU.
        monitor.handle(.mcuRestarted(at: LinkMilliseconds(5_000))) { outputs.append($0) }
        #expect(monitor.utc.offsetMs == nil)
        #expect(outputs.contains(.utcUnknown(at: LinkMilliseconds(5_000))))
        monitor.handle(.fix(Self.dated(Self.morningUTCMs + 3 * 86_400_000), at: LinkMilliseconds(6_000))) { outputs.append($0) }
        #expect(monitor.utc.offsetMs == Self.morningUTCMs + 3 * 86_400_000 - 6_000)
    }
}
