import ArgumentParser
import FairFuelConfiguration
import FairFuelCore
import FairFuelEdges
import FairFuelLink
import FairFuelService

#if canImport(Glibc)
import Glibc
#endif

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

        var resolvedPort: String { port ?? BoardProfile.piZero2W.link.port }
        var resolvedBaud: Int { baud ?? BoardProfile.piZero2W.link.baud }
    }

    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the MCU's HELLO: firmware, board id, capabilities, name.",
            discussion: "Asks the running service; when none runs, opens the port and asks the MCU itself (HELLO_REQ).")
        @Flag(help: "Print the fields as JSON.") var json = false
        @OptionGroup var control: ControlOptions
        @OptionGroup var port: PortOptions

        func run() throws {
            if let answer = ControlSocketClient.ask(path: control.resolvedPath, request: "mcu info", timeoutMs: 3_000), !answer.isEmpty {
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
            var link = try DirectMCULink(port: port.resolvedPort, baud: port.resolvedBaud)
            defer { link.close() }
            guard let hello = try link.requestHello(timeoutMs: 3_000) else {
                throw UserFacingError("no HELLO from the MCU on \(port.resolvedPort) within 3 s (is it in its bootloader, or is this the wrong port?)")
            }
            if json {
                var line = JSONLine()
                line.add("name", hello.name)
                line.add("firmware", hello.firmwareVersion)
                line.add("board_id", Int(hello.boardID))
                line.add("capabilities_raw", Int(hello.capabilities.rawValue))
                line.add("uptime_ms", Int64(hello.uptimeMs))
                line.add("port", port.resolvedPort)
                print(line.string)
                return
            }
            let board = String(hello.boardID, radix: 16, uppercase: true)
            print("name \(hello.name)\nfirmware \(hello.firmwareVersion)\nboard 0x\(String(repeating: "0", count: 4 - board.count))\(board)")
            print("capabilities \(hello.capabilities.names.joined(separator: " "))\nuptime \(hello.uptimeMs) ms\nvia \(port.resolvedPort)")
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
                fflush(nil)
                let reply = readLine()?.lowercased() ?? ""
                guard reply == "y" || reply == "yes" else {
                    print("not sent")
                    return
                }
            }
            if let answer = ControlSocketClient.ask(path: control.resolvedPath, request: "mcu bootloader", timeoutMs: 6_000), !answer.isEmpty {
                if answer.hasPrefix("error:") { throw UserFacingError(String(answer.dropFirst(7)).trimmingTrailingNewline) }
                print(answer.okText)
                return
            }
            var link = try DirectMCULink(port: port.resolvedPort, baud: port.resolvedBaud)
            defer { link.close() }
            guard let status = try link.command(.bootloader, timeoutMs: 2_000) else {
                throw UserFacingError("the MCU on \(port.resolvedPort) did not acknowledge BOOTLOADER")
            }
            guard status == .ok else { throw UserFacingError("the MCU refused BOOTLOADER (\(status.name))") }
            print("the MCU acknowledged BOOTLOADER and is resetting into its bootloader; run the vendor's flashing tool now")
        }
    }
}

/// The MCU link opened by the CLI itself (the service is not running): one command at a time.
struct DirectMCULink {
    let connection: SerialConnection
    var encoder = FrameEncoder()
    var decoder = FrameDecoder(sender: .mcu)
    var ring = ByteRing(capacity: 4096)
    var scratch = [UInt8](repeating: 0, count: 1024)
    /// HELLO_REQ went out: the MCU's sequence count follows this process's.
    var streamStarted = false

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
        try send(.helloRequest(HelloRequest(hostMajor: 1, hostMinor: 0)))
        streamStarted = true
        var hello: Hello?
        try receive(timeoutMs: timeoutMs) { message in
            if case let .hello(found) = message {
                var copy = found
                copy.nameBytes = ArraySlice(Array(found.nameBytes))
                hello = copy
                return true
            }
            return false
        }
        return hello
    }

    /// Sends a command, resending it (same seq) as the protocol says; its ACK's status, nil without one.
    ///
    /// A new process's first frame has seq 0, which an MCU that last heard seq 0 from an earlier
    /// process (a `mcu info` just before) drops as a duplicate and re-ACKs without doing it. So a
    /// stream starts with HELLO_REQ, which restarts the MCU's count, and the command follows it.
    mutating func command(_ message: LinkMessage, timeoutMs: Int64) throws -> Ack.Status? {
        if !streamStarted {
            guard try requestHello(timeoutMs: min(2_000, timeoutMs)) != nil else {
                throw UserFacingError("the MCU on \(connection.path) did not answer HELLO_REQ; the command was not sent")
            }
        }
        let wire: [UInt8]
        do { wire = try encoder.encode(message) } catch { throw UserFacingError("\(error)") }
        let seq = encoder.nextSeq &- 1
        var status: Ack.Status?
        for _ in 0...3 where status == nil {
            try write(wire)
            try receive(timeoutMs: min(500, timeoutMs)) { message in
                if case let .ack(ack) = message, ack.ackedSeq == seq { status = ack.status; return true }
                return false
            }
        }
        return status
    }

    private mutating func send(_ message: LinkMessage) throws {
        do { try write(try encoder.encode(message)) } catch let error as UserFacingError { throw error } catch { throw UserFacingError("\(error)") }
    }

    private func write(_ wire: [UInt8]) throws {
        do { try connection.write(wire) } catch { throw UserFacingError("cannot write to \(connection.path): \(error)") }
    }

    private mutating func receive(timeoutMs: Int64, until done: (LinkMessage) -> Bool) throws {
        var clock = timespec()
        clock_gettime(CLOCK_MONOTONIC, &clock)
        let deadline = Int64(clock.tv_sec) * 1000 + Int64(clock.tv_nsec) / 1_000_000 + timeoutMs
        var finished = false
        while !finished {
            clock_gettime(CLOCK_MONOTONIC, &clock)
            let left = deadline - (Int64(clock.tv_sec) * 1000 + Int64(clock.tv_nsec) / 1_000_000)
            if left <= 0 { return }
            do {
                _ = try connection.read(into: &ring, scratch: &scratch, timeoutMs: Int32(min(left, 100)))
            } catch {
                throw UserFacingError("the MCU link on \(connection.path) failed: \(error)")
            }
            ring.drain { chunk in
                decoder.decode(chunk) { output in
                    if !finished, case let .frame(frame) = output, done(frame.message) { finished = true }
                }
            }
        }
    }
}

/// The flat JSON object the service answers `mcu info` with: strings, numbers and one array of strings.
struct FlatJSON {
    private var values: [String: String] = [:]
    private var lists: [String: [String]] = [:]

    init(_ text: String) {
        var scalars = Array(text.unicodeScalars)[...]
        func skip() { while let c = scalars.first, c == " " || c == "," || c == ":" || c == "{" || c == "}" || c == "\n" { scalars.removeFirst() } }
        func string() -> String? {
            guard scalars.first == "\"" else { return nil }
            scalars.removeFirst()
            var out = String.UnicodeScalarView()
            while let c = scalars.popFirst(), c != "\"" {
                if c == "\\", let escaped = scalars.popFirst() { out.append(escaped) } else { out.append(c) }
            }
            return String(out)
        }
        while true {
            skip()
            guard let key = string() else { break }
            skip()
            if scalars.first == "[" {
                scalars.removeFirst()
                var items: [String] = []
                while true {
                    skip()
                    if scalars.first == "]" { scalars.removeFirst(); break }
                    guard let item = string() else { break }
                    items.append(item)
                }
                lists[key] = items
            } else if let value = string() {
                values[key] = value
            } else {
                var raw = ""
                while let c = scalars.first, c != ",", c != "}" { raw.unicodeScalars.append(c); scalars.removeFirst() }
                if raw != "null" { values[key] = raw }
            }
        }
    }

    subscript(key: String) -> String? { values[key] }
    func list(_ key: String) -> [String] { lists[key] ?? [] }
}
