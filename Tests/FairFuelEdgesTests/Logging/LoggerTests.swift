import FairFuelCore
import FairFuelEdges
import Foundation
import Synchronization
import Testing

@Suite struct LoggerTests {
    /// Collects the lines a logger writes.
    final class Lines: Sendable {
        let storage = Mutex<[String]>([])
        var all: [String] { storage.withLock { $0 } }
        func logger(_ minimum: LogLevel = .debug, _ style: LogLineStyle) -> Logger {
            Logger(minimumLevel: minimum, style: style, sink: { bytes in
                self.storage.withLock { $0.append(String(decoding: bytes, as: UTF8.self)) }
            })
        }
    }

    @Test func journalLinesCarryTheSDDaemonPriority() {
        let lines = Lines()
        let log = lines.logger(.debug, .journal)
        log.error("store write failed", ["path": "/var/lib/fairfuel/fairfuel.db"])
        log.warning("MCU link down")
        log.notice("session started", ["driver": "Ann"])
        log.info("UTC known")
        log.debug("frame", ["seq": "7", "type": "0x11"])
        #expect(lines.all == [
            "<3>store write failed path=/var/lib/fairfuel/fairfuel.db\n",
            "<4>MCU link down\n",
            "<5>session started driver=Ann\n",
            "<6>UTC known\n",
            "<7>frame seq=7 type=0x11\n",
        ])
    }

    @Test func plainLinesStartWithTheLevelName() {
        let lines = Lines()
        let log = lines.logger(.debug, .plain)
        for level in LogLevel.allCases { log.log(level, "event", ["k": "v"]) }
        #expect(lines.all == [
            "ERROR event k=v\n", "WARNING event k=v\n", "NOTICE event k=v\n", "INFO event k=v\n", "DEBUG event k=v\n",
        ])
    }

    @Test func oneEventIsAlwaysOneLine() {
        let text = LogLine.text(
            level: .warning, message: "MCU said:\nreset\r\tnow\u{7}",
            fields: ["reason": "brown out", "quote": "say \"hi\"", "path": "C:\\x", "empty": "", "multi": "a\nb", "bad key": "1"],
            style: .plain)
        #expect(text == #"WARNING MCU said:\nreset\r\tnow\x07 reason="brown out" quote="say \"hi\"" path="C:\\x" empty="" multi="a\nb" bad_key=1"# + "\n")
        #expect(text.filter { $0 == "\n" }.count == 1)
    }

    @Test func nonASCIITextPassesThrough() {
        #expect(LogLine.text(level: .info, message: "Zoë tankte", fields: ["ort": "Köln"], style: .journal) == "<6>Zoë tankte ort=Köln\n")
    }

    @Test func eventsBelowTheMinimumAreNeitherFormattedNorWritten() {
        let lines = Lines()
        let log = lines.logger(.notice, .plain)
        nonisolated(unsafe) var built = 0
        func expensive() -> String {
            built += 1
            return "detail"
        }
        log.debug(expensive())
        log.info(expensive())
        log.notice(expensive())
        #expect(built == 1)
        #expect(lines.all == ["NOTICE detail\n"])
        #expect(log.isEnabled(.error) && log.isEnabled(.notice) && !log.isEnabled(.info))
        #expect(!Logger.disabled.isEnabled(.error))
        Logger.disabled.error(expensive())
        #expect(built == 1)
    }

    @Test func levelsOrderBySeverityAndParseFromNames() {
        #expect(LogLevel.error > .warning && LogLevel.warning > .notice && LogLevel.notice > .info && LogLevel.info > .debug)
        #expect(LogLevel(name: "WARN") == .warning)
        #expect(LogLevel(name: "debug") == .debug)
        #expect(LogLevel(name: "verbose") == nil)
        #expect(LogLevel.allCases.map(\.rawValue) == [3, 4, 5, 6, 7])
    }

    @Test func journalStyleOnlyWhenJournalStreamNamesStderr() {
        #expect(StandardErrorLog.style(journalStream: "8:12345", device: 8, inode: 12345) == .journal)
        #expect(StandardErrorLog.style(journalStream: "8:12345", device: 8, inode: 99) == .plain)
        #expect(StandardErrorLog.style(journalStream: nil, device: 8, inode: 12345) == .plain)
        #expect(StandardErrorLog.style(journalStream: "garbage", device: 8, inode: 12345) == .plain)
        #expect(StandardErrorLog.style(journalStream: "8:", device: 8, inode: 0) == .plain)
    }

    @Test func theStderrWriterWritesWholeLines() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let line = Array(LogLine.text(level: .info, message: String(repeating: "x", count: 3000), style: .journal).utf8)
        StandardErrorLog.write(line, to: ends[1])
        close(ends[1])
        let data = FileHandle(fileDescriptor: ends[0]).readDataToEndOfFile()
        #expect(Array(data) == line)
    }
}
