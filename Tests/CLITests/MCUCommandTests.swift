import FairFuelEdges
import FairFuelLink
import Foundation
import Testing
import TestSupport

/// `fairfuel mcu bootloader` without a service, against a scripted MCU on a pseudo-terminal:
/// the command's resends, ACKs and giving up, as the protocol's ACK rules (and the service) have them.
@Suite(.serialized) struct MCUCommandTests {
    /// What the scripted MCU heard from the host, with when (ms since the MCU started).
    struct Heard: Sendable {
        var frame: Frame
        var wire: [UInt8]
        var atMs: Int64
    }

    /// An MCU that ACKs HELLO_REQ with a HELLO, and answers BOOTLOADER only at its `answerAt`-th
    /// arrival (1-based) with `status`; nil: never.
    final class ScriptedMCU: @unchecked Sendable {
        let pty: PseudoTerminal
        let answerAt: Int?
        let status: Ack.Status
        private let lock = NSLock()
        private var heard: [Heard] = []
        private var stopped = false
        private var thread: Thread?

        init(link: String, answerAt: Int?, status: Ack.Status = .ok) throws {
            pty = try PseudoTerminal()
            self.answerAt = answerAt
            self.status = status
            try? FileManager.default.removeItem(atPath: link)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: pty.devicePath)
        }

        func start() {
            let thread = Thread { [self] in serve() }
            self.thread = thread
            thread.start()
        }

        func stop() -> [Heard] {
            lock.withLock { stopped = true }
            while thread?.isFinished == false { usleep(5_000) }
            return lock.withLock { heard }
        }

        private func serve() {
            let started = Date()
            var decoder = FrameDecoder(sender: .host)
            var encoder = FrameEncoder()
            var bootloaders = 0
            var partial: [UInt8] = []
            var lastFrame: Frame?
            while !lock.withLock({ stopped }) {
                guard let bytes = try? pty.read(timeoutMs: 20), !bytes.isEmpty else { continue }
                let atMs = Int64(Date().timeIntervalSince(started) * 1000)
                // Frame by frame (each ends with 0x00), so a resend, which the decoder drops as a
                // duplicate, is still heard with its own bytes.
                var wires: [[UInt8]] = []
                for byte in bytes {
                    partial.append(byte)
                    if byte == 0 { wires.append(partial); partial = [] }
                }
                for wire in wires {
                    var decoded: Frame?
                    decoder.decode(wire) { output in
                        switch output {
                        case .frame(let frame): decoded = frame
                        case .duplicate(let seq, _) where lastFrame?.seq == seq: decoded = lastFrame
                        default: break
                        }
                    }
                    guard let frame = decoded else { continue }
                    lastFrame = frame
                    lock.withLock { heard.append(Heard(frame: frame, wire: wire, atMs: atMs)) }
                    var replies: [LinkMessage] = []
                    switch frame.message {
                    case .helloRequest:
                        encoder = FrameEncoder()
                        replies = [.ack(Ack(ackedSeq: frame.seq, status: .ok)), .hello(Self.hello)]
                    case .bootloader:
                        bootloaders += 1
                        if bootloaders == answerAt { replies = [.ack(Ack(ackedSeq: frame.seq, status: status))] }
                    default:
                        break
                    }
                    for reply in replies { try? pty.write((try? encoder.encode(reply)) ?? []) }
                }
            }
        }

        static let hello = Hello(
            firmwareMajor: 1, firmwareMinor: 4, firmwarePatch: 2, boardID: 0x0101,
            capabilities: [.nfcReader, .bleScanner, .gnss], uptimeMs: 1_000, name: "scripted MCU")
    }

    /// Runs `fairfuel mcu bootloader --yes` on a scripted MCU; what it printed and what the MCU heard.
    static func bootloader(answerAt: Int?, status: Ack.Status = .ok) throws -> (CommandResult, [Heard]) {
        let directory = NSTemporaryDirectory() + "ff-mcu-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let mcu = try ScriptedMCU(link: directory + "/mcu", answerAt: answerAt, status: status)
        mcu.start()
        let result = try FairFuelExecutable.run(
            ["mcu", "bootloader", "--yes", "--port", directory + "/mcu"],
            environment: ["FAIRFUEL_CONTROL": directory + "/none.sock"])
        return (result, mcu.stop())
    }

    static func bootloaders(_ heard: [Heard]) -> [Heard] {
        heard.filter { $0.frame.message == .bootloader }
    }

    @Test func anAnsweredCommandIsSentOnceAfterHelloRequest() throws {
        let (result, heard) = try Self.bootloader(answerAt: 1)
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("the MCU acknowledged BOOTLOADER"))
        #expect(heard.map(\.frame.seq) == [0, 1])
        #expect(heard.first?.frame.message == .helloRequest(HelloRequest(hostMajor: 1, hostMinor: 0)))
        #expect(Self.bootloaders(heard).count == 1)
    }

    @Test func anUnansweredCommandIsResentWithItsSeqEvery500MsThenAnsweredOnTheThirdTry() throws {
        let (result, heard) = try Self.bootloader(answerAt: 3)
        #expect(result.exitCode == 0, "\(result.standardError)")
        let sends = Self.bootloaders(heard)
        #expect(sends.count == 3)
        #expect(Set(sends.map(\.frame.seq)) == [1])
        #expect(Set(sends.map(\.wire)).count == 1, "a resend is the same frame")
        for (earlier, later) in zip(sends, sends.dropFirst()) {
            #expect((400...800).contains(later.atMs - earlier.atMs), "resent after \(later.atMs - earlier.atMs) ms")
        }
    }

    @Test func aCommandNeverAnsweredIsSentFourTimesThenReportedUnanswered() throws {
        let (result, heard) = try Self.bootloader(answerAt: nil)
        #expect(result.exitCode != 0)
        #expect(result.standardError.contains("did not acknowledge BOOTLOADER"), "\(result.standardError)")
        let sends = Self.bootloaders(heard)
        #expect(sends.count == 4)
        #expect(Set(sends.map(\.frame.seq)) == [1])
        if let first = sends.first, let last = sends.last {
            #expect((1_300...2_200).contains(last.atMs - first.atMs), "three resends over \(last.atMs - first.atMs) ms")
        }
    }

    @Test func aRefusalIsReportedWithTheMCUsStatus() throws {
        let (result, heard) = try Self.bootloader(answerAt: 1, status: .failed)
        #expect(result.exitCode != 0)
        #expect(result.standardError.contains("the MCU refused BOOTLOADER (failed)"), "\(result.standardError)")
        #expect(Self.bootloaders(heard).count == 1)
    }
}
