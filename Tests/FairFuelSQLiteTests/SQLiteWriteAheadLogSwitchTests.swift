import FairFuelSQLite
import Foundation
import Testing

/// `enableWriteAheadLog`: the switch to WAL needs an exclusive lock, and SQLite answers BUSY at
/// once (its busy handler is not called) while another connection reads. Two hub instances opening
/// one new database hit exactly that in CI; the switch now waits and asks again.
@Suite struct SQLiteWriteAheadLogSwitchTests {
    private func newDatabasePath() throws -> (directory: URL, path: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fairfuel-wal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (directory, directory.appendingPathComponent("t.db").path)
    }

    @Test func aReaderInTheWayMakesTheSwitchWaitThenItSucceeds() throws {
        let (directory, path) = try newDatabasePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let reader = try SQLiteConnection(path: path)
        try reader.execute("CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1)")
        try reader.execute("BEGIN")
        #expect(try reader.scalarInt("SELECT COUNT(*) FROM t") == 1)  // holds a shared lock

        let switcher = try SQLiteConnection(path: path)
        // The plain pragma fails at once: this is the error CI saw.
        #expect(throws: SQLiteError.self) { try switcher.scalarText("PRAGMA journal_mode = WAL") }

        // The reader lets go after 150 ms, while the switch is waiting.
        let released = DispatchSemaphore(value: 0)
        let readerBox = UncheckedBox(reader)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(150)) {
            try? readerBox.value.execute("COMMIT")
            released.signal()
        }
        let mode = try switcher.enableWriteAheadLog(waitingMilliseconds: 5_000)
        released.wait()
        #expect(mode == "wal")
        #expect(try SQLiteConnection(path: path).scalarText("PRAGMA journal_mode") == "wal")
    }

    @Test func aReaderThatNeverLetsGoIsBusyAfterTheWait() throws {
        let (directory, path) = try newDatabasePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let reader = try SQLiteConnection(path: path)
        try reader.execute("CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1)")
        try reader.execute("BEGIN")
        _ = try reader.scalarInt("SELECT COUNT(*) FROM t")
        let switcher = try SQLiteConnection(path: path)
        do {
            try switcher.enableWriteAheadLog(waitingMilliseconds: 60)
            Issue.record("the switch cannot succeed while a reader holds its lock")
        } catch {
            #expect(error.primaryCode == 5)  // SQLITE_BUSY
        }
        try reader.execute("COMMIT")
        #expect(try switcher.scalarText("PRAGMA journal_mode") == "delete")
    }

    @Test func fourConnectionsOpeningOneNewFileAtOnceAllGetWAL() throws {
        for _ in 0..<10 {
            let (directory, path) = try newDatabasePath()
            defer { try? FileManager.default.removeItem(at: directory) }
            let modes = UncheckedBox([String?](repeating: nil, count: 4))
            let lock = NSLock()
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                let mode: String? = {
                    do {
                        let connection = try SQLiteConnection(path: path)
                        connection.setBusyTimeout(milliseconds: 5_000)
                        let mode = try connection.enableWriteAheadLog()
                        try connection.execute("CREATE TABLE IF NOT EXISTS t (v INTEGER)")
                        return mode
                    } catch {
                        return "error: \(error)"
                    }
                }()
                lock.lock()
                modes.value[index] = mode
                lock.unlock()
            }
            #expect(modes.value == ["wal", "wal", "wal", "wal"])
        }
    }
}

/// Hands a value the test owns to another thread (the test orders the accesses itself).
private final class UncheckedBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
