import ArgumentParser
import FairFuelConfiguration
import FairFuelCore
import FairFuelEdges
import FairFuelLink
import FairFuelService

/// `fairfuel mcu`: the MCU's identity, and handing it to its vendor's flashing tool.
struct MCUCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcu", abstract: "The dongle's microcontroller: firmware identity and bootloader.",
        subcommands: [Info.self, Bootloader.self])

    /// Where the MCU is when the service does not hold it.
    struct PortOptions: ParsableArguments {
        @Option(help: "The MCU's serial port when the service is not running (default: the board profile's).")
        var port: String?
        @Option(help: "Baud rate (ignored by USB CDC-ACM ports).")
        var baud: Int?

        /// The port and baud rate given, else the board profile's (`$FAIRFUEL_BOARD`, else the installed one).
        func resolved() throws -> (port: String, baud: Int) {
            if let port, let baud { return (port, baud) }
            let link = try ServiceBoard.load(for: "the MCU's serial port").link
            return (port ?? link.port, baud ?? link.baud)
        }
    }

    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the MCU's HELLO: firmware, board id, capabilities, name.",
            discussion: "Asks the running service; when none runs, opens the port and asks the MCU itself (HELLO_REQ).")
        @Flag(help: "Print the fields as JSON.") var json = false
        @OptionGroup var control: ControlOptions
        @OptionGroup var port: PortOptions

        func run() throws {
            if let answer = ControlSocketClient.ask(path: try control.resolvedPath, request: "mcu info", timeoutMs: 3_000), !answer.isEmpty {
                if answer.hasPrefix("error:") { throw UserFacingError(String(answer.dropFirst(7)).trimmingTrailingNewline) }
                if json { print(answer.trimmingTrailingNewline); return }
                let fields = FlatJSON(answer)
                guard let firmware = fields["firmware"] else {
                    throw UserFacingError("the service has not heard the MCU's HELLO yet (link \(fields["link"] ?? "?") on \(fields["port"] ?? "?"))")
                }
                print("name \(fields["name"] ?? "")\nfirmware \(firmware)\nboard \(fields["board_id"] ?? "")")
                print("capabilities \(fields.list("capabilities").joined(separator: " "))\nvia the running service (link \(fields["link"] ?? "?") on \(fields["port"] ?? "?"))")
                return
            }
            let serial = try port.resolved()
            var link = try DirectMCULink(port: serial.port, baud: serial.baud)
            defer { link.close() }
            guard let hello = try link.requestHello(timeoutMs: 3_000) else {
                throw UserFacingError("no HELLO from the MCU on \(serial.port) within 3 s (is it in its bootloader, or is this the wrong port?)")
            }
            if json {
                var line = JSONLine()
                line.add("name", hello.name)
                line.add("firmware", hello.firmwareVersion)
                line.add("board_id", Int(hello.boardID))
                line.add("capabilities_raw", Int(hello.capabilities.rawValue))
                line.add("uptime_ms", Int64(hello.uptimeMs))
                line.add("port", serial.port)
                print(line.string)
                return
            }
            let board = String(hello.boardID, radix: 16, uppercase: true)
            print("name \(hello.name)\nfirmware \(hello.firmwareVersion)\nboard 0x\(String(repeating: "0", count: 4 - board.count))\(board)")
            print("capabilities \(hello.capabilities.names.joined(separator: " "))\nuptime \(hello.uptimeMs) ms\nvia \(serial.port)")
        }
    }

    struct Bootloader: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Reset the MCU into its USB bootloader for the vendor's flashing tool (see README, Flashing the MCU).")
        @Flag(help: "Do not ask for confirmation.") var yes = false
        @OptionGroup var control: ControlOptions
        @OptionGroup var port: PortOptions

        func run() throws {
            if !yes {
                print("The MCU will reset into its bootloader: trips are not recorded until it is flashed or reset. Continue? [y/N] ", terminator: "")
                try? StandardStreams.flush()
                let reply = readLine()?.lowercased() ?? ""
                guard reply == "y" || reply == "yes" else {
                    print("not sent")
                    return
                }
            }
            if let answer = ControlSocketClient.ask(path: try control.resolvedPath, request: "mcu bootloader", timeoutMs: 6_000), !answer.isEmpty {
                if answer.hasPrefix("error:") { throw UserFacingError(String(answer.dropFirst(7)).trimmingTrailingNewline) }
                print(answer.okText)
                return
            }
            let serial = try port.resolved()
            var link = try DirectMCULink(port: serial.port, baud: serial.baud)
            defer { link.close() }
            guard let status = try link.command(.bootloader) else {
                throw UserFacingError("the MCU on \(serial.port) did not acknowledge BOOTLOADER")
            }
            guard status == .ok else { throw UserFacingError("the MCU refused BOOTLOADER (\(status.name))") }
            print("the MCU acknowledged BOOTLOADER and is resetting into its bootloader; run the vendor's flashing tool now")
        }
    }
}

/// The MCU link opened by the CLI itself (the service is not running): one command at a time,
/// framed, resent and given up on by the same `CommandTracker` as the service's.
struct DirectMCULink {
    let connection: SerialConnection
    /// Every host frame goes through it: one seq count for the process, the protocol's resends.
    var tracker = CommandTracker(capacity: 2)
    var decoder = FrameDecoder(sender: .mcu)
    var ring = ByteRing(capacity: 4096)
    var scratch = [UInt8](repeating: 0, count: 1024)
    let clock = MonotonicClock()
    /// HELLO_REQ went out: the MCU's sequence count follows this process's.
    var streamStarted = false

    /// What the link heard while waiting: an MCU message, or what became of a command.
    enum Heard {
        case message(LinkMessage)
        case outcome(CommandOutcome)
    }

    init(port: String, baud: Int) throws {
        do {
            connection = try SerialOpener.open(path: port, baud: baud)
        } catch {
            throw UserFacingError("cannot open the MCU port \(port): \(error) (is the service holding it? then it answers instead)")
        }
    }

    func close() { connection.close() }

    /// Sends HELLO_REQ and returns the HELLO that answers it (a boot HELLO will do).
    mutating func requestHello(timeoutMs: Int64) throws -> Hello? {
        _ = try send(.helloRequest(HelloRequest(hostMajor: 1, hostMinor: 0)))
        streamStarted = true
        var hello: Hello?
        try receive(timeoutMs: timeoutMs) { heard in
            if case let .message(.hello(found)) = heard {
                var copy = found
                copy.nameBytes = ArraySlice(Array(found.nameBytes))
                hello = copy
                return true
            }
            return false
        }
        // The HELLO answers HELLO_REQ: a missing ACK for it must not resend it in the middle of a command.
        if hello != nil { tracker.reset() }
        return hello
    }

    /// Sends a command, resent (same seq) as the protocol says; its ACK's status, nil without one
    /// after three resends.
    ///
    /// A new process's first frame has seq 0, which an MCU that last heard seq 0 from an earlier
    /// process (a `mcu info` just before) drops as a duplicate and re-ACKs without doing it. So a
    /// stream starts with HELLO_REQ, which restarts the MCU's count, and the command follows it.
    mutating func command(_ message: LinkMessage) throws -> Ack.Status? {
        if !streamStarted {
            guard try requestHello(timeoutMs: 2_000) != nil else {
                throw UserFacingError("the MCU on \(connection.path) did not answer HELLO_REQ; the command was not sent")
            }
        }
        let seq = try send(message)
        var status: Ack.Status?
        // The tracker decides when the command is answered or given up; the deadline only guards the loop.
        let givingUpMs = CommandTracker.resendAfterMs * Int64(CommandTracker.maximumResends + 1)
        try receive(timeoutMs: givingUpMs + 1_000) { heard in
            switch heard {
            case let .outcome(.acknowledged(ackedSeq, _, ackStatus)) where ackedSeq == seq:
                status = ackStatus
                return true
            case let .outcome(.unanswered(unansweredSeq, _)) where unansweredSeq == seq:
                return true
            default:
                return false
            }
        }
        return status
    }

    /// Frames `message` through the tracker and writes it; its seq.
    private mutating func send(_ message: LinkMessage) throws -> UInt16 {
        var refused = false
        guard let sent = tracker.send(message, at: clock.now, { _ in refused = true }) else {
            throw UserFacingError(refused
                ? "cannot send \(message.jsonName) to the MCU: a command is still waiting for its ACK"
                : "cannot frame \(message.jsonName) for the MCU")
        }
        try write(sent.wire)
        return sent.seq
    }

    private func write(_ wire: [UInt8]) throws {
        do { try connection.write(wire) } catch { throw UserFacingError("cannot write to \(connection.path): \(error)") }
    }

    /// Reads and decodes for up to `timeoutMs`, handing ACKs to the tracker and resending what it
    /// says is due, until `done` holds for something heard.
    private mutating func receive(timeoutMs: Int64, until done: (Heard) -> Bool) throws {
        let deadline = clock.now.value + timeoutMs
        var finished = false
        var heard: [Heard] = []
        while !finished {
            let now = clock.now
            let left = deadline - now.value
            if left <= 0 { return }
            var resends: [[UInt8]] = []
            tracker.due(at: now, resend: { resends.append($0) }) { heard.append(.outcome($0)) }
            for wire in resends { try write(wire) }
            let waitMs = min(left, 100, tracker.millisecondsUntilDue(at: now) ?? 100)
            do {
                _ = try connection.read(into: &ring, scratch: &scratch, timeoutMs: Int32(max(waitMs, 1)))
            } catch {
                throw UserFacingError("the MCU link on \(connection.path) failed: \(error)")
            }
            ring.drain { chunk in
                decoder.decode(chunk) { output in
                    if case let .frame(frame) = output { heard.append(.message(frame.message)) }
                }
            }
            for item in heard where !finished {
                if case let .message(.ack(ack)) = item {
                    tracker.acknowledge(ack) { outcome in if !finished, done(.outcome(outcome)) { finished = true } }
                }
                if !finished, done(item) { finished = true }
            }
            heard.removeAll(keepingCapacity: true)
        }
    }
}
