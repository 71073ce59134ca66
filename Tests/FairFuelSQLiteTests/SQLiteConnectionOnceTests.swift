import FairFuelSQLite
import Foundation
import Testing

/// `runOnce` and `queryOnce` prepare, run and finalise: nothing stays in the connection's
/// statement cache, which lives as long as the daemon (issue 16's memory).
@Suite struct SQLiteConnectionOnceTests {
    private func withConnection(_ body: (SQLiteConnection) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fairfuel-once-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let connection = try SQLiteConnection(path: directory.appendingPathComponent("t.db").path)
        try connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)")
        try body(connection)
    }

    @Test func onceStatementsRunAndAreNotKept() throws {
        try withConnection { connection in
            let before = connection.cachedStatementCount
            #expect(try connection.runOnce("INSERT INTO t (v) VALUES (?), (?)", .text("a"), .text("b")) == 2)
            let rows = try connection.queryOnce("SELECT v FROM t WHERE id >= ? ORDER BY id", .integer(1)) { $0.text(0) }
            #expect(rows == ["a", "b"])
            #expect(try connection.quickCheck().isEmpty)
            #expect(try connection.integrityCheck().isEmpty)
            #expect(connection.cachedStatementCount == before)
            // The cached path still caches: one statement, reused.
            _ = try connection.query("SELECT COUNT(*) FROM t") { $0.int64(0) }
            _ = try connection.query("SELECT COUNT(*) FROM t") { $0.int64(0) }
            #expect(connection.cachedStatementCount == before + 1)
        }
    }

    @Test func aOnceStatementsErrorNamesItsSQLAndLeavesTheConnectionUsable() throws {
        try withConnection { connection in
            #expect(throws: SQLiteError.self) { try connection.runOnce("INSERT INTO missing (v) VALUES (1)") }
            do {
                _ = try connection.queryOnce("SELECT nope FROM t") { $0.int64(0) }
                Issue.record("a bad column must throw")
            } catch let error as SQLiteError {
                #expect(error.sql == "SELECT nope FROM t")
            }
            #expect(try connection.runOnce("INSERT INTO t (v) VALUES ('c')") == 1)
        }
    }
}
