import FairFuelCore
import FairFuelEdges
import FairFuelLink
import Testing
import TestSupport

@Suite struct SerialConnectionTests {
    @Test func libserialportRefusesAPseudoTerminalAndTermiosTakesOver() throws {
        let pty = try PseudoTerminal()
        #expect(pty.devicePath.hasPrefix("/dev/pts/"))
        #expect(throws: SerialPortError.self) { _ = try SerialOpener.openWithLibserialport(path: pty.devicePath, baud: 115_200) }
        var log: [String] = []
        let connection = try SerialOpener.open(path: pty.devicePath, baud: 115_200) { log.append($0) }
        #expect(connection.opener == .termios)
        #expect(log.count == 1)
        #expect(log.first?.contains("with termios (libserialport refused it") == true)
        // The reason is libserialport's own, never a stale errno.
        #expect(log.first?.contains("Success") == false, "\(log)")
    }

    @Test func framesCrossAPseudoTerminalBothWays() throws {
        let pty = try PseudoTerminal()
        let connection = try SerialOpener.openWithTermios(path: pty.devicePath, baud: 115_200)
        // MCU to host: 200 heartbeats written by the "MCU" on the controller side.
        var encoder = FrameEncoder()
        var wire: [UInt8] = []
        for second in 0..<200 {
            try encoder.encode(.heartbeat(Heartbeat(uptimeMs: UInt32(second * 1000), mcuDropped: 0, supplyMillivolts: 12_600, flags: 1)), into: &wire)
        }
        try pty.write(wire)
        var ring = ByteRing(capacity: 512)  // smaller than the burst: the reader must drain as it goes
        var scratch = [UInt8](repeating: 0, count: 256)
        var decoder = FrameDecoder(sender: .mcu)
        var received = 0
        var idleRounds = 0
        while received < 200 && idleRounds < 50 {
            switch try connection.read(into: &ring, scratch: &scratch, timeoutMs: 100) {
            case .bytes: idleRounds = 0
            case .timedOut, .ringFull: idleRounds += 1
            }
            ring.drain { chunk in decoder.decode(chunk) { if case .frame = $0 { received += 1 } } }
        }
        #expect(received == 200)
        #expect(decoder.counters.errorTotal == 0)
        #expect(ring.refusedByteCount == 0)

        // Host to MCU: a FEEDBACK command arrives intact on the controller side.
        let command = try FrameEncoder.encode(.feedback(.sessionStarted), seq: 7)
        try connection.write(command)
        var echoed: [UInt8] = []
        for _ in 0..<20 where echoed.count < command.count { echoed += try pty.read(timeoutMs: 100) }
        #expect(echoed == command)
    }

    @Test func readTimesOutWithoutBusyLooping() throws {
        let pty = try PseudoTerminal()
        let connection = try SerialOpener.openWithTermios(path: pty.devicePath, baud: 115_200)
        var ring = ByteRing(capacity: 64)
        var scratch = [UInt8](repeating: 0, count: 64)
        let clock = ContinuousClock()
        let start = clock.now
        #expect(try connection.read(into: &ring, scratch: &scratch, timeoutMs: 200) == .timedOut)
        #expect(clock.now - start >= .milliseconds(150))
        _ = pty  // the controller stays open during the wait
    }

    @Test func closingTheOtherSideIsADisconnect() throws {
        var pty: PseudoTerminal? = try PseudoTerminal()
        let connection = try SerialOpener.openWithTermios(path: pty!.devicePath, baud: 115_200)
        pty = nil  // the MCU is unplugged
        var ring = ByteRing(capacity: 64)
        var scratch = [UInt8](repeating: 0, count: 64)
        #expect(throws: SerialPortError.disconnected(path: connection.path)) {
            for _ in 0..<10 { _ = try connection.read(into: &ring, scratch: &scratch, timeoutMs: 100) }
        }
    }

    @Test func configurationErrorsAreClear() {
        #expect(throws: SerialPortError.unsupportedBaudRate(12_345)) { _ = try SerialOpener.openWithTermios(path: "/dev/null", baud: 12_345) }
        do {
            _ = try SerialOpener.openWithLibserialport(path: "/dev/ttyNOPE9", baud: 115_200)
            Issue.record("opening a missing port should fail")
        } catch {
            #expect(error.description.hasPrefix("libserialport cannot find /dev/ttyNOPE9"))
        }
        do {
            _ = try SerialOpener.open(path: "/dev/ttyNOPE9", baud: 115_200)
            Issue.record("opening a missing port should fail")
        } catch {
            #expect(error == .system(path: "/dev/ttyNOPE9", operation: "open", errnoCode: 2))
        }
    }

    @Test func enumerationFindsNoFairFuelMCUOnThisMachine() {
        // libserialport's enumeration runs for real; this machine has no FairFuel hardware.
        let ports = SerialPortCatalog.list()
        for port in ports { #expect(port.path.hasPrefix("/dev/")) }
        #expect(SerialPortCatalog.find(usbVendorID: 0x1209, usbProductID: 0x4646).isEmpty)
        #expect(SerialPortCatalog.libraryVersion == "0.1.1")
    }
}
