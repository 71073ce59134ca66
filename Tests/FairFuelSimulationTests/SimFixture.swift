import FairFuelEdges
import FairFuelLink
import FairFuelSimulation
import FairFuelSimulationRunner
import TestSupport

/// Scenarios and running virtual MCUs for the tests.
enum SimFixture {
    static var scenariosDirectory: String { PackagePaths.root + "/scenarios" }

    static func shipped(_ name: String) throws -> SimScenario {
        try SimScenarioParser.load(path: scenariosDirectory + "/" + name)
    }

    static func inline(_ text: String) throws -> SimScenario {
        try SimScenarioParser.parse(text, sourceName: "test.scenario", baseDirectory: scenariosDirectory)
    }

    /// A small header: one driver (Anna, iBeacon fob, NDEF tag), parked at home, day 1 open.
    static let header = """
        title test
        seed 5
        start 2026-03-02 08:00
        place home 48.13510 11.58200
        vehicle at home
        driver Anna tag ntag213 04:A2:2B:7A:3C:5D:80 uri fairfuel://driver/3f2a1b4c-5d6e-4f70-8192-a3b4c5d6e7f8 beacon ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:100:1
        day 1

        """

    /// A virtual MCU on a pseudo-terminal with the host side open and the MCU running on its own thread.
    final class Running {
        let mcu: VirtualMCU
        let host: HostLink
        let thread: BlockingThread<Result<VirtualMCUReport, VirtualMCUError>>

        init(_ scenario: SimScenario, options: VirtualMCUOptions, until limit: VirtualMCURunLimit = .scenarioEnd) throws {
            mcu = try VirtualMCU(scenario: scenario, options: options)
            let path = try mcu.start()
            host = try HostLink(path: path)
            thread = mcu.runInBackground(until: limit)
        }

        /// Stops the MCU and returns its report.
        @discardableResult
        func finish() throws -> VirtualMCUReport {
            mcu.stop()
            let report = try thread.join().get()
            host.close()
            return report
        }
    }
}
