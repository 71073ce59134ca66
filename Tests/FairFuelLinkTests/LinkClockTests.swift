import FairFuelCore
import FairFuelLink
import Testing
import TestSupport

@Suite struct LinkClockTests {
    private func ms(_ value: Int64) -> LinkMilliseconds { LinkMilliseconds(value) }

    @Test func framesAdvanceByTheirStampsNotByHostTime() {
        var clock = LinkClock(hostMs: ms(0))
        #expect(clock.frame(stampMs: 10_000, isHello: true, hostMs: ms(5)) == ms(0))
        // A sped-up MCU: ten minutes of stamps within 30 ms of host time.
        #expect(clock.frame(stampMs: 70_000, isHello: false, hostMs: ms(10)) == ms(60_000))
        #expect(clock.frame(stampMs: 610_000, isHello: false, hostMs: ms(35)) == ms(600_000))
        #expect(clock.reboots == 0)
        #expect(clock.clamped == 0)
    }

    @Test func firstFrameContinuesFromTheExtrapolatedTime() {
        var clock = LinkClock(hostMs: ms(1_000), extrapolationGraceMs: 2_000)
        #expect(clock.extrapolate(hostMs: ms(2_500)) == ms(0))  // within the grace
        #expect(clock.extrapolate(hostMs: ms(8_000)) == ms(5_000))
        #expect(clock.frame(stampMs: 123_456, isHello: true, hostMs: ms(8_100)) == ms(5_100))
        #expect(clock.frame(stampMs: 124_456, isHello: false, hostMs: ms(8_200)) == ms(6_100))
    }

    @Test func unwrapsAcrossTheUInt32Wrap() {
        var clock = LinkClock(hostMs: ms(0))
        let start = UInt32.max - 1_500
        #expect(clock.frame(stampMs: start, isHello: false, hostMs: ms(0)) == ms(0))
        #expect(clock.frame(stampMs: UInt32.max, isHello: false, hostMs: ms(1)) == ms(1_500))
        #expect(clock.frame(stampMs: 499, isHello: false, hostMs: ms(2)) == ms(2_000))  // wrapped
        #expect(clock.frame(stampMs: 2_499, isHello: false, hostMs: ms(3)) == ms(4_000))
        #expect(clock.reboots == 0)
        // A long run: many wraps, one stamp every 20 days, stays exact.
        var stamp: UInt32 = 2_499
        var expected: Int64 = 4_000
        for host in 4..<20 {
            stamp = stamp &+ 1_728_000_000
            expected += 1_728_000_000
            #expect(clock.frame(stampMs: stamp, isHello: false, hostMs: ms(Int64(host))) == ms(expected))
        }
        #expect(expected > Int64(UInt32.max) * 6)
    }

    @Test func rebootWithHelloContinuesFromTheLastValuePlusTheNewUptime() {
        var clock = LinkClock(hostMs: ms(0))
        _ = clock.frame(stampMs: 50_000, isHello: true, hostMs: ms(0))
        #expect(clock.frame(stampMs: 80_000, isHello: false, hostMs: ms(10)) == ms(30_000))
        // The MCU restarts; its HELLO says it has been up 400 ms.
        #expect(clock.frame(stampMs: 400, isHello: true, hostMs: ms(20)) == ms(30_400))
        #expect(clock.frame(stampMs: 1_400, isHello: false, hostMs: ms(30)) == ms(31_400))
        #expect(clock.reboots == 1)
        // A HELLO answering HELLO_REQ (uptime still growing) is not a reboot.
        #expect(clock.frame(stampMs: 2_000, isHello: true, hostMs: ms(40)) == ms(32_000))
        #expect(clock.reboots == 1)
        // Nor is one stamped slightly before a frame already queued: clamped.
        #expect(clock.frame(stampMs: 1_900, isHello: true, hostMs: ms(50)) == ms(32_000))
        #expect(clock.reboots == 1)
        #expect(clock.clamped == 1)
        // A HELLO well behind is a reboot, even a quick one.
        #expect(clock.frame(stampMs: 9_000, isHello: false, hostMs: ms(60)) == ms(39_000))
        #expect(clock.frame(stampMs: 300, isHello: true, hostMs: ms(70)) == ms(39_300))
        #expect(clock.reboots == 2)
    }

    @Test func largeBackwardJumpWithoutHelloIsARebootToo() {
        var clock = LinkClock(hostMs: ms(0), reorderToleranceMs: 5_000)
        _ = clock.frame(stampMs: 600_000, isHello: false, hostMs: ms(0))
        #expect(clock.frame(stampMs: 660_000, isHello: false, hostMs: ms(1)) == ms(60_000))
        #expect(clock.frame(stampMs: 3_000, isHello: false, hostMs: ms(2)) == ms(63_000))
        #expect(clock.frame(stampMs: 4_000, isHello: false, hostMs: ms(3)) == ms(64_000))
        #expect(clock.reboots == 1)
    }

    @Test func oldStampFarBehindIsAQueuedFrameNotAReboot() {
        // A virtual MCU at 5000x can send a frame stamped minutes behind the newest one;
        // taking it for a reboot would add its whole uptime (days) to domain time.
        var clock = LinkClock(hostMs: ms(0), reorderToleranceMs: 5_000)
        _ = clock.frame(stampMs: 400_000_000, isHello: false, hostMs: ms(0))
        #expect(clock.frame(stampMs: 400_600_000, isHello: false, hostMs: ms(1)) == ms(600_000))
        #expect(clock.frame(stampMs: 400_300_000, isHello: false, hostMs: ms(2)) == ms(600_000))
        #expect(clock.frame(stampMs: 400_601_000, isHello: false, hostMs: ms(3)) == ms(601_000))
        #expect(clock.reboots == 0)
        #expect(clock.clamped == 1)
    }

    @Test func smallOutOfOrderStampsAreClampedNeverBackwards() {
        var clock = LinkClock(hostMs: ms(0), reorderToleranceMs: 5_000)
        _ = clock.frame(stampMs: 10_000, isHello: false, hostMs: ms(0))
        #expect(clock.frame(stampMs: 12_000, isHello: false, hostMs: ms(1)) == ms(2_000))  // NMEA
        #expect(clock.frame(stampMs: 11_800, isHello: false, hostMs: ms(2)) == ms(2_000))  // a BLE stamped earlier
        #expect(clock.frame(stampMs: 12_100, isHello: false, hostMs: ms(3)) == ms(2_100))
        #expect(clock.clamped == 1)
        #expect(clock.reboots == 0)
    }

    @Test func quietOrUnpluggedLinkExtrapolatesByHostTimeAfterTheGrace() {
        var clock = LinkClock(hostMs: ms(0), extrapolationGraceMs: 2_000)
        _ = clock.frame(stampMs: 1_000, isHello: true, hostMs: ms(0))
        #expect(clock.frame(stampMs: 11_000, isHello: false, hostMs: ms(10_000)) == ms(10_000))
        // Ticks within the grace after a frame leave time where the MCU put it.
        #expect(clock.extrapolate(hostMs: ms(11_000)) == ms(10_000))
        #expect(clock.peek(hostMs: ms(12_000)) == ms(10_000))
        // Unplugged for 100 s: time runs on by the host's clock.
        #expect(clock.extrapolate(hostMs: ms(50_000)) == ms(48_000))
        #expect(clock.peek(hostMs: ms(110_000)) == ms(108_000))
        #expect(clock.latest == ms(48_000))  // peek records nothing
        #expect(clock.extrapolate(hostMs: ms(110_000)) == ms(108_000))
        // The MCU comes back after a reboot, up 3 s: time continues from there, never back.
        #expect(clock.frame(stampMs: 3_000, isHello: true, hostMs: ms(110_100)) == ms(111_000))
        // The same MCU back without a reboot, its stamps behind the extrapolation: clamped.
        var other = LinkClock(hostMs: ms(0), extrapolationGraceMs: 0)
        _ = other.frame(stampMs: 0, isHello: false, hostMs: ms(0))
        #expect(other.extrapolate(hostMs: ms(4_000)) == ms(4_000))
        #expect(other.frame(stampMs: 3_000, isHello: false, hostMs: ms(4_001)) == ms(4_000))
        #expect(other.frame(stampMs: 4_500, isHello: false, hostMs: ms(4_002)) == ms(4_500))
    }

    @Test func hostObservedEventsGetDistinctTimesWithoutTheGrace() {
        var clock = LinkClock(hostMs: ms(0), extrapolationGraceMs: 2_000)
        _ = clock.frame(stampMs: 5_000, isHello: false, hostMs: ms(0))
        // gpsd fixes 200 ms apart between two heartbeats: each later than the one before.
        #expect(clock.hostEvent(hostMs: ms(200)) == ms(200))
        #expect(clock.hostEvent(hostMs: ms(400)) == ms(400))
        // The next heartbeat, stamped a little behind the host's view, is clamped, never back.
        #expect(clock.frame(stampMs: 5_350, isHello: false, hostMs: ms(450)) == ms(400))
        #expect(clock.frame(stampMs: 6_000, isHello: false, hostMs: ms(1_000)) == ms(1_000))
    }

    @Test func neverDecreasesOverARandomMixOfEvents() {
        var random = SeededGenerator(seed: 42)
        var clock = LinkClock(hostMs: ms(0))
        var host: Int64 = 0
        var stamp: UInt32 = UInt32.max - 20_000
        var last = ms(0)
        for _ in 0..<20_000 {
            host += Int64(random.next() % 50)
            let roll = random.next() % 100
            let time: LinkMilliseconds
            switch roll {
            case 0: stamp = UInt32(random.next() % 5_000); time = clock.frame(stampMs: stamp, isHello: true, hostMs: ms(host))
            case 1..<10: time = clock.extrapolate(hostMs: ms(host))
            case 10..<20: time = clock.frame(stampMs: stamp &- UInt32(random.next() % 3_000), isHello: false, hostMs: ms(host))
            default:
                stamp = stamp &+ UInt32(random.next() % 1_000)
                time = clock.frame(stampMs: stamp, isHello: false, hostMs: ms(host))
            }
            #expect(time >= last)
            last = time
        }
        #expect(clock.reboots > 0)
        #expect(clock.clamped > 0)
    }

    @Test func stampsComeFromTheRightFields() {
        let heartbeat = LinkMessage.heartbeat(Heartbeat(uptimeMs: 77, mcuDropped: 0, supplyMillivolts: 12_000, flags: 0))
        #expect(LinkClock.stamp(of: heartbeat)?.stampMs == 77)
        #expect(LinkClock.stamp(of: heartbeat)?.isHello == false)
        let power = LinkMessage.power(PowerReport(mcuTimeMs: 99, ignitionOn: true, supplyMillivolts: 12_000))
        #expect(LinkClock.stamp(of: power)?.stampMs == 99)
        #expect(LinkClock.stamp(of: .ack(Ack(ackedSeq: 1, status: .ok))) == nil)
        var clock = LinkClock(hostMs: ms(0), extrapolationGraceMs: 0)
        _ = clock.time(of: heartbeat, hostMs: ms(0))
        #expect(clock.time(of: .ack(Ack(ackedSeq: 1, status: .ok)), hostMs: ms(250)) == ms(250))
        #expect(clock.time(of: power, hostMs: ms(260)) == ms(250))  // 22 ms after the heartbeat, clamped
    }
}
