import FairFuelEdges
import FairFuelPull
import Foundation
import Testing
import TestSupport

/// `fairfuel pull` against a hostile paired dongle: this process plays the dongle on a real
/// pseudo-terminal (the dongle's own `PullServerSession`, with a scripted data source), and the
/// real `fairfuel pull` is the laptop. Each attack ends the pull with a clear error, quickly,
/// and leaves no folder behind.
@Suite(.serialized) struct HostilePullTests {
    static let secret = PairingSecret(parsing: "00112233445566778899aabbccddeeff")!

    /// What the scripted dongle does wrong.
    enum Attack {
        /// Two summary lines of Int.max trips each: their sum overflows.
        case overflowingSummary
        /// Every trips page says `more` and lists 16 new trips.
        case endlessTrips
        /// Every drivers page says `more` and names the same cursor.
        case pagesThatDoNotMove
        /// Every track page says `more` with new points.
        case endlessTrack
        /// An honest pull whose driver and vehicle names carry terminal escapes and a bidi override.
        case controlNames
    }

    /// A name that retitles the terminal, clears the screen and reverses what follows.
    static let hostileName = "Al\u{1B}]0;pwned\u{07}ice\u{1B}[2J\u{202E}evil"
    /// How every text output shows it.
    static let hostileNameShown = "Al\\u{1B}]0;pwned\\u{7}ice\\u{1B}[2J\\u{202E}evil"

    /// A scripted dongle: an honest vehicle, then the attack.
    struct HostileSource: PullDataSource {
        let attack: Attack
        var pagesServed = 0

        mutating func pairingSecret() -> PairingSecret? { HostilePullTests.secret }

        mutating func page(for request: PullRequest) throws -> PullPage {
            pagesServed += 1
            let driver = attack == .controlNames ? HostilePullTests.hostileName : "Alice"
            func page(_ lines: [[String]], next: Int64, more: Bool) -> PullPage {
                PullPage(text: Array(lines.map(PullRecordLine.encode).joined().utf8), records: UInt16(lines.count), nextCursor: next, more: more)
            }
            switch request.kind {
            case .vehicle:
                let car = attack == .controlNames ? "Golf\u{1B}[31m" : "Golf"
                return page([[car, "EUR", "2", "metric", "petrol", "a1b2c3d4e5f60718", "", ""]], next: 1, more: false)
            case .drivers:
                if attack == .pagesThatDoNotMove { return page([["1", driver, ""]], next: 0, more: true) }
                return page([["1", driver, ""]], next: 1, more: false)
            case .summary:
                if attack == .overflowingSummary {
                    let most = String(Int64.max)
                    return page([["1", "Alice", most, "1000", "1", "0"], ["2", "Bob", most, "1000", "1", "0"]], next: 1, more: false)
                }
                return page([["1", driver, "1", "1000", "1", "0"]], next: 1, more: false)
            case .trips:
                let first = request.cursor + 1
                let count: Int64 = attack == .endlessTrips ? 16 : (request.cursor == 0 ? 1 : 0)
                let lines = (first..<first + count).map { id in
                    [String(id), "1", driver, "1763629200000", "1763630000000", "ignition_off", "1000", "800000", "700000", "100000",
                     "20", "0", "0", "0.1", "", ""]
                }
                return page(lines, next: first + count - 1, more: attack == .endlessTrips)
            case .track:
                let first = request.cursor
                let lines = (first..<first + 512).map { index in [String(1_763_629_200_000 + index * 1_000), "52.5", "13.4", "10"] }
                return page(lines, next: first + 512, more: attack == .endlessTrack)
            case .splits:
                guard attack == .controlNames else { return page([], next: 0, more: false) }
                return page([["1", "1763640000000", "40", "7250", "1", "1", driver, "40", "7250", "EUR", "0"]], next: 1, more: false)
            }
        }
    }

    /// The dongle's end of a pseudo-terminal, served on a thread until `stop`.
    final class ScriptedDongle: @unchecked Sendable {
        let terminal: PseudoTerminal
        private let lock = NSLock()
        private var stopping = false
        private var served = 0
        private let done = DispatchSemaphore(value: 0)

        init(_ attack: Attack) throws {
            terminal = try PseudoTerminal()
            let thread = Thread { [self] in
                var session = PullServerSession()
                var source = HostileSource(attack: attack)
                var reader = PullFrameReader(sender: .laptop)
                var writer = PullFrameWriter()
                while !lock.withLock({ stopping }) {
                    guard let bytes = try? terminal.read(timeoutMs: 50), !bytes.isEmpty else { continue }
                    var replies: [PullMessage] = []
                    reader.decode(bytes[...]) { output in
                        if case let .message(message) = output {
                            _ = session.handle(message, nowMs: 0, source: &source) { replies.append($0) }
                        }
                    }
                    var wire: [UInt8] = []
                    for reply in replies { wire += writer.encode(reply) }
                    if !wire.isEmpty { try? terminal.write(wire) }
                    lock.withLock { served = source.pagesServed }
                }
                done.signal()
            }
            thread.start()
        }

        var pagesServed: Int { lock.withLock { served } }

        func stop() {
            lock.withLock { stopping = true }
            done.wait()
        }
    }

    /// Runs `fairfuel pull` against `attack`; its result, seconds and pages the dongle served.
    static func pull(_ attack: Attack) throws -> (result: CommandResult, seconds: Double, pages: Int, out: String) {
        try pull(attack, secret: secret)
    }

    static func pull(_ attack: Attack, secret: PairingSecret) throws -> (result: CommandResult, seconds: Double, pages: Int, out: String) {
        let directory = NSTemporaryDirectory() + "fairfuel-hostile-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let dongle = try ScriptedDongle(attack)
        defer { dongle.stop() }
        let out = directory + "/pull"
        let started = Date()
        let result = try FairFuelExecutable.run([
            "pull", "--port", dongle.terminal.devicePath, "--out", out, "--secret", secret.display, "--answer-timeout-ms", "1000",
        ])
        return (result, Date().timeIntervalSince(started), dongle.pagesServed, out)
    }

    @Test(.timeLimit(.minutes(1))) func summaryCountsThatOverflowAreABadRecordNotACrash() throws {
        let (result, seconds, _, out) = try Self.pull(.overflowingSummary)
        #expect(result.exitCode == 1, "a clear error, not SIGILL (132): \(result.exitCode) \(result.standardError)")
        #expect(result.standardError.contains("the dongle sent a summary record this version cannot read"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: out), "nothing written")
        #expect(seconds < 10)
    }

    @Test(.timeLimit(.minutes(2))) func aDongleThatListsTripsForeverIsStoppedAndWritesNothing() throws {
        let (result, seconds, pages, out) = try Self.pull(.endlessTrips)
        #expect(result.exitCode == 1, "\(result.standardError)")
        #expect(result.standardError.contains("the dongle's trips listing goes past \(PullLimits.standard.maximumTrips) trips"),
                "\(result.standardError)")
        #expect(result.standardError.contains("wrote none of it"))
        #expect(!FileManager.default.fileExists(atPath: out), "no folder, no GPX file: \(result.standardError)")
        let pagesNeeded = PullLimits.standard.maximumTrips / 16
        #expect(pages > pagesNeeded && pages < pagesNeeded + 10, "the listing stops at the bound: \(pages) pages")
        print("endless trips: refused after \(pages) pages in \(seconds) s")
    }

    @Test(.timeLimit(.minutes(1))) func pagesThatDoNotMoveOnAreRefusedAtTheSecondPage() throws {
        let (result, seconds, pages, out) = try Self.pull(.pagesThatDoNotMove)
        #expect(result.exitCode == 1, "\(result.standardError)")
        #expect(result.standardError.contains("the dongle's drivers listing says there is more but does not move past record 0"),
                "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(pages <= 3 && seconds < 10, "\(pages) pages in \(seconds) s")
    }

    @Test(.timeLimit(.minutes(2))) func anEndlessTrackIsStoppedBeforeItsTripIsWritten() throws {
        let (result, seconds, _, out) = try Self.pull(.endlessTrack)
        #expect(result.exitCode == 1, "\(result.standardError)")
        #expect(result.standardError.contains("the dongle's trip 1 track listing goes past \(PullLimits.standard.maximumTrackPoints) points"),
                "\(result.standardError)")
        let tracks = (try? FileManager.default.contentsOfDirectory(atPath: out + "/tracks")) ?? []
        #expect(tracks.isEmpty, "no GPX file for the trip whose track never ended: \(tracks)")
        let journal = (try? String(contentsOfFile: out + "/.fairfuel-pull/trips.tsv", encoding: .utf8)) ?? ""
        #expect(journal.isEmpty, "the trip is not journalled as pulled")
        print("endless track: refused in \(seconds) s")
    }

    /// Names with terminal escapes, pulled from a dongle, shown by every text command as visible
    /// escapes (the HTML report escapes them for HTML); the JSON keeps them exactly.
    @Test(.timeLimit(.minutes(1))) func controlCharactersInPulledNamesAreShownAsEscapes() throws {
        let (pulled, _, _, out) = try Self.pull(.controlNames)
        #expect(pulled.exitCode == 0, "\(pulled.standardError)")
        for arguments in [["family", out], ["summary", out], ["split", out]] {
            let result = try FairFuelExecutable.run(arguments)
            #expect(result.exitCode == 0, "\(arguments): \(result.standardError)")
            let text = result.standardOutput
            #expect(text.contains(Self.hostileNameShown), "\(arguments): \(text)")
            #expect(!text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" },
                    "\(arguments) printed a raw control: \(text.debugDescription)")
        }
        let summary = try FairFuelExecutable.run(["summary", out])
        #expect(summary.standardOutput.contains("Golf\\u{1B}[31m"), "the car's name too: \(summary.standardOutput)")
        let json = try FairFuelExecutable.run(["family", out, "--json"])
        #expect(json.standardOutput.contains("Al\\u001b]0;pwned\\u0007ice"), "JSON keeps the name, JSON-escaped: \(json.standardOutput)")
    }
}
