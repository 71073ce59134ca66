import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension IntegrationTests {
    /// `fairfueld`, the daemon systemd runs, is the same service as `fairfuel run` (ServiceDaemon).
    @Suite struct DaemonTests {
        @Test func fairfueldRunsTheServiceAndStopsCleanlyOnSIGTERM() throws {
            try IntegrationTests.withRig("drive.scenario") { rig in
                _ = try rig.startSim(speed: IntegrationTests.speed, idleSpeed: IntegrationTests.idleSpeed)
                let daemon = try rig.startDaemon()
                try rig.waitUntil("Anna's session under way", seconds: IntegrationTests.patience) {
                    let status = rig.status()
                    return status?.driver == "Anna" && (status?.sessionKilometers ?? 0) > 0.2
                }
                daemon.send(SIGTERM)
                let ending = daemon.wait(seconds: 5)
                #expect(ending == .exited(0), "fairfueld ended with \(ending.map(\.description) ?? "nothing") after SIGTERM")
                let sessions = try rig.openStore().sessions()
                #expect(sessions.map(\.driverName) == ["Anna"])
                #expect(try rig.storeProblems() == nil)
            }
        }
    }
}
