import FairFuelEdges
import FairFuelService
import Foundation
import Testing
import TestSupport

/// Random request lines to a running service's control socket: every one gets an answer
/// (ok, error or the status JSON), none crashes the service, and `status` still answers after.
@Suite(.serialized) struct ControlProtocolFuzzTests {
    static let cases = Int(ProcessInfo.processInfo.environment["FAIRFUEL_FUZZ_CONTROL_CASES"] ?? "") ?? 1_500

    static let words = [
        "status", "session", "end", "reload", "learn-tag", "learn-beacon", "write-tag", "mcu", "info", "bootloader",
        "30", "0", "256", "-1", "5", "Alice", "Bob", "\u{202E}x", "\u{200B}", "é", "  ", "\t", "0x10", "1e9", "nan",
        String(repeating: "A", count: 300),
    ]

    @Test func randomRequestsAllGetAnAnswerAndTheServiceCarriesOn() throws {
        let harness = try ServiceRuntimeTests.Harness()
        try harness.start()
        defer { harness.stopAndWait() }
        var generator = SeededGenerator(seed: 1515)
        var answered = 0
        var errors = 0
        for index in 0..<Self.cases {
            var request: String
            if index % 5 == 4 {
                // Raw bytes (no newline inside: the line ends where the client puts it).
                let bytes = (0..<Int.random(in: 0...64, using: &generator)).map { _ in UInt8.random(in: 1...255, using: &generator) }.filter { $0 != 0x0A }
                request = String(decoding: bytes, as: UTF8.self)
            } else {
                request = (0..<Int.random(in: 0...5, using: &generator)).map { _ in Self.words.randomElement(using: &generator)! }.joined(separator: " ")
            }
            // Never the ones that really act on the MCU or wait for a tap.
            if request.hasPrefix("mcu bootloader") || request.hasPrefix("learn") || request.hasPrefix("write-tag") { request = "x" + request }
            guard let answer = ControlSocketClient.ask(path: harness.controlPath, request: request, timeoutMs: 2_000) else {
                Issue.record("no answer to \(request.debugDescription)")
                break
            }
            answered += 1
            if answer.hasPrefix("error:") { errors += 1 }
            #expect(answer.hasPrefix("ok") || answer.hasPrefix("error:") || answer.hasPrefix("{"), "\(request.debugDescription) -> \(answer.prefix(80))")
        }
        print("control protocol fuzz: \(answered) random requests answered (\(errors) errors)")
        #expect(answered == Self.cases)
        #expect(ControlSocketClient.ask(path: harness.controlPath, request: "status")?.hasPrefix("{") == true)
    }
}
