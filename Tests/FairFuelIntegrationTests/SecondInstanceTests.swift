import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension IntegrationTests {
    /// Two `fairfuel run` on one store, one port or one control socket: the second is refused,
    /// naming the first's pid, before it creates anything, and the first keeps its control socket.
    @Suite struct SecondInstanceTests {
        @Test func aSecondRunOnTheSameStoreOrPortIsRefusedWithTheHoldersPid() throws {
            try IntegrationTests.withRig("drive.scenario") { rig in
                _ = try rig.startSim(speed: IntegrationTests.speed, idleSpeed: IntegrationTests.idleSpeed)
                let first = try rig.startRun()
                try rig.waitUntil("the first service has the link up", seconds: IntegrationTests.patience) { rig.status()?.json["link"] as? String == "up" }

                // Same store, another port and socket.
                let sameStore = try rig.spawn("run", [
                    "run", "--port", rig.directory + "/no-such-port", "--db", rig.databasePath, "--control", rig.directory + "/second.sock",
                ])
                let storeEnding = sameStore.wait(seconds: 20)
                #expect(storeEnding != nil && storeEnding != .exited(0), "the second run on the same store: \(storeEnding.map(\.description) ?? "still running")")
                #expect(sameStore.standardError.contains("the store \(rig.databasePath) is in use by process \(first.pid)"), "\(sameStore.standardError)")
                #expect(!FileManager.default.fileExists(atPath: rig.directory + "/second.sock"))

                // Same port, another store and socket.
                let samePort = try rig.spawn("run", [
                    "run", "--port", rig.linkPath, "--db", rig.directory + "/other.db", "--control", rig.directory + "/third.sock",
                ])
                let portEnding = samePort.wait(seconds: 20)
                #expect(portEnding != nil && portEnding != .exited(0))
                #expect(samePort.standardError.contains("is in use by process \(first.pid)"), "\(samePort.standardError)")
                // Refused before anything is created: a typo'd --db leaves no store behind.
                #expect(!FileManager.default.fileExists(atPath: rig.directory + "/other.db"), "the refused run created its store")

                // Same control socket, another store and port: the socket stays the first's.
                let sameSocket = try rig.spawn("run", [
                    "run", "--port", rig.directory + "/no-such-port", "--db", rig.directory + "/fourth.db", "--control", rig.controlPath,
                ])
                let socketEnding = sameSocket.wait(seconds: 20)
                #expect(socketEnding != nil && socketEnding != .exited(0))
                #expect(sameSocket.standardError.contains("another service answers there (pid \(first.pid))"), "\(sameSocket.standardError)")
                #expect(!FileManager.default.fileExists(atPath: rig.directory + "/fourth.db"), "the refused run created its store")
                #expect(first.isRunning)
                #expect(rig.status()?.json["port"] as? String == rig.linkPath, "status answers for the first service")
            }
        }
    }
}
