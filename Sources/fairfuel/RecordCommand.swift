import ArgumentParser
import FairFuelEdges
import FairFuelSimulation
import Synchronization

/// Set by SIGINT/SIGTERM; the recorder polls it.
private let recordInterrupted = Atomic<Bool>(false)

/// `fairfuel record`: captures a live link into a `.ffcap` file.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Capture a live MCU link into a .ffcap capture (replay it with 'fairfuel replay').",
        discussion: """
            Every read becomes an 'rx' line stamped with the host's monotonic milliseconds since \
            the start. Stops on SIGINT/SIGTERM, after --seconds, or when the port goes away; the \
            file is flushed and closed either way.
            """)

    @Option(help: "The serial port, e.g. /dev/ttyACM0 or the virtual MCU's /tmp/fairfuel-sim/mcu.")
    var port: String

    @Option(help: "Baud rate (ignored by USB CDC-ACM ports).")
    var baud = 115_200

    @Option(help: "The capture file to write.")
    var out: String

    @Option(parsing: .unconditional, help: "Stop after this many seconds (up to a year).", transform: CheckedArgument.simulatedSeconds)
    var seconds: Double?

    @Flag(help: "Send HELLO_REQ at the start (recorded as a tx line).")
    var hello = false

    func validate() throws {
        if let seconds { guard seconds > 0, seconds.isFinite else { throw ValidationError("--seconds must be above 0") } }
        guard baud > 0 else { throw ValidationError("--baud must be above 0") }
    }

    func run() throws {
        let connection: SerialConnection
        do {
            connection = try SerialOpener.open(path: port, baud: baud) { line in
                StandardErrorLog.write(Array((line + "\n").utf8))
            }
        } catch {
            throw UserFacingError(error.description)
        }
        defer { connection.close() }
        let writer: CaptureFileWriter
        do { writer = try CaptureFileWriter(path: out) } catch { throw UserFacingError(error.description) }
        try catchStopSignals { _ in recordInterrupted.store(true, ordering: .relaxed) }
        let options = CaptureRecorder.Options(
            seconds: seconds, sendHelloRequest: hello, comment: "recorded from \(port) at \(baud) baud by fairfuel record")
        let summary: CaptureRecorder.Summary
        do {
            summary = try CaptureRecorder.record(connection: connection, to: writer, options: options) {
                recordInterrupted.load(ordering: .relaxed)
            }
            try writer.close()
        } catch {
            try? writer.close()
            throw UserFacingError("\(error)")
        }
        let reason =
            switch summary.reason {
            case .stopped: "stopped"
            case .timeLimit: "time limit"
            case .disconnected: "port disconnected"
            }
        print("recorded \(summary.bytes) bytes in \(summary.reads) reads over \(summary.durationMs) ms to \(out) (\(reason))")
    }
}
