import FairFuelCore
import FairFuelLink
import FairFuelSimulation
import FairFuelSimulationRunner
import Foundation
import Testing

/// An MCU's off periods (unplugged, rebooting) as a host measures them: on its own clock,
/// through the link clock the service uses. Sped up, the virtual MCU must not lose the
/// part of the off period the host's clock cannot see.
@Suite(.serialized) struct VirtualMCUOffTimeTests {
    /// Host link time at the HELLO after a 30 s unplug at 50x, against simulated time.
    @Test func anUnplugAt50xCostsTheHostNoLinkTime() throws {
        let directory = SimTestFiles.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { SimTestFiles.remove(directory) }
        let link = directory + "/mcu"
        let scenario = try SimFixture.inline(SimFixture.header + "08:01 unplug 30 s\n08:02:30 end\n")
        let speed = 50.0
        let mcu = try VirtualMCU(scenario: scenario, options: VirtualMCUOptions(speed: speed, linkPath: link))
        try mcu.start()
        let thread = mcu.runInBackground()
        defer {
            mcu.stop()
            _ = thread.join()
        }

        let clock = ContinuousClock()
        let origin = clock.now
        func hostMs() -> LinkMilliseconds { LinkMilliseconds(Int64((clock.now - origin).milliseconds)) }
        var linkClock = LinkClock(hostMs: hostMs())
        var helloLinkMs: [Int64] = []
        var host: HostLink? = try HostLink(path: link)
        var consumed = 0
        let deadline = clock.now.advanced(by: .seconds(10))
        while helloLinkMs.count < 2 && clock.now < deadline {
            guard let current = host else {
                // Unplugged: the service ticks its link clock meanwhile, and reopens the link.
                _ = linkClock.extrapolate(hostMs: hostMs())
                SimTestFiles.sleep(milliseconds: 10)
                if SimTestFiles.linkTarget(link) != nil, let reopened = try? HostLink(path: link) {
                    host = reopened
                    consumed = 0
                }
                continue
            }
            current.readOnce(timeoutMs: 10)
            while consumed < current.received.count {
                let frame = current.received[consumed].frame
                consumed += 1
                let time = linkClock.time(of: frame.message, hostMs: hostMs())
                if frame.message.hello != nil { helloLinkMs.append(time.value) }
            }
            if current.disconnected {
                current.close()
                host = nil
            } else {
                _ = linkClock.extrapolate(hostMs: hostMs())
            }
        }
        host?.close()
        try #require(helloLinkMs.count == 2, "saw \(helloLinkMs.count) HELLOs")
        let helloSimMs = mcu.events.filter { $0.kind == .hello(requested: false) }.map(\.simMs)
        try #require(helloSimMs.count >= 2)
        let simulatedGapMs = helloSimMs[1] - helloSimMs[0]
        let hostGapMs = helloLinkMs[1] - helloLinkMs[0]
        #expect(linkClock.reboots == 1)
        // The host's 2 s extrapolation grace, and the real 0.6 s it saw, are all it may miss.
        #expect(abs(hostGapMs - simulatedGapMs) < 2_500, "host link time \(hostGapMs) ms across an off period of \(simulatedGapMs) simulated ms")
    }
}
