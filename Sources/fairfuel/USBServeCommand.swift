import ArgumentParser
import FairFuelCore
import FairFuelEdges
import FairFuelPull
import FairFuelService
import FairFuelStore

struct USBServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "usb-serve",
        abstract: "Serve USB pulls on the gadget port (read-only on the store).",
        discussion: """
            Waits for PORT (the USB gadget, normally /dev/ttyGS0), answers a paired laptop's
            `fairfuel pull`, and reopens the port after each unplug. Nothing is served before
            the laptop proves it knows the pairing secret (`fairfuel provision pairing-secret`).
            SIGTERM or SIGINT: stop. Protocol: docs/usb-pull-protocol.md.
            """)

    @Option(help: "The gadget serial port.")
    var port: String = "/dev/ttyGS0"
    @Option(help: "Baud rate (a USB gadget ignores it; a UART does not).")
    var baud: Int = 115_200
    @Option(name: .customLong("test-page-delay-ms"), help: .hidden)
    var pageDelayMs: Int32 = 0
    @OptionGroup var store: StoreOptions

    func run() throws {
        do { try HMACSHA256.load() } catch { throw UserFacingError("\(error)") }
        let signals: SignalWatcher
        do { signals = try SignalWatcher(signals: [.terminate, .interrupt]) } catch { throw UserFacingError("\(error)") }
        SignalWatcher.ignoreBrokenPipe()
        let logger = StandardErrorLog.logger()
        let server = USBPullServer(portPath: port, baud: baud, store: try store.openReadOnly(), log: { logger.info($0) })
        server.pageDelayMs = pageDelayMs
        server.serve(shouldStop: {
            guard let signal = try? signals.next() else { return false }
            logger.notice("\(signal) received")
            return true
        })
    }
}
