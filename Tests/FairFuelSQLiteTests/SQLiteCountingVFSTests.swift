import FairFuelSQLite
import Foundation
import Testing

@Suite struct SQLiteCountingVFSTests {
    static func register() throws -> SQLiteCountingVFS {
        try SQLiteCountingVFS.register(name: "test-\(UUID().uuidString)")
    }

    @Test func countsBytesAndSyncsPerFile() throws {
        let vfs = try Self.register()
        let connection = try SQLiteConnection(path: temporaryDatabasePath(), vfs: vfs.name)
        _ = try connection.scalarText("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA synchronous = FULL")
        try connection.execute("CREATE TABLE t (x)")
        let before = vfs.counters
        for n in 0..<5 { try connection.run("INSERT INTO t VALUES (?)", .int(n)) }
        let delta = vfs.counters.since(before)
        #expect(delta.wal.syncs == 5)  // one fsync per commit
        #expect(delta.wal.writes == 10)  // one frame per commit: its header, then its page
        #expect(delta.wal.bytesWritten == 5 * (4_096 + 24))
        #expect(delta.database.bytesWritten == 0)  // pages reach the database at checkpoints only
        try connection.checkpoint(.passive)
        #expect(vfs.counters.since(before).database.syncs == 1)
        #expect(SQLiteCountingVFS.named(vfs.name) === vfs)
        #expect(throws: SQLiteError.self) { _ = try SQLiteCountingVFS.register(name: vfs.name) }
    }

    @Test func heldWritesReachTheFileOnlyWhenSynced() throws {
        let vfs = try Self.register()
        vfs.setHoldsUnsyncedWrites(true)
        let path = temporaryDatabasePath()
        let connection = try SQLiteConnection(path: path, vfs: vfs.name)
        _ = try connection.scalarText("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA synchronous = OFF")
        try connection.execute("CREATE TABLE t (x)")
        for n in 0..<50 { try connection.run("INSERT INTO t VALUES (?)", .int(n)) }
        // The connection reads its own writes...
        #expect(try connection.scalarInt("SELECT COUNT(*) FROM t") == 50)
        // ...which the file system has not seen: a power cut now would lose them all.
        #expect((SQLiteDatabaseFiles.size(of: path + "-wal") ?? 0) == 0)
        try connection.execute("PRAGMA synchronous = FULL")
        try connection.run("INSERT INTO t VALUES (50)")
        #expect((SQLiteDatabaseFiles.size(of: path + "-wal") ?? 0) > 0)
        let reader = try SQLiteConnection(path: path, mode: .readOnly)
        #expect(try reader.scalarInt("SELECT COUNT(*) FROM t") == 51)
    }

    @Test func aFullDiskRefusesGrowthAndTheConnectionCarriesOn() throws {
        let vfs = try Self.register()
        let connection = try SQLiteConnection(path: temporaryDatabasePath(), vfs: vfs.name)
        _ = try connection.scalarText("PRAGMA journal_mode = WAL")
        try connection.execute("CREATE TABLE t (x)")
        try connection.run("INSERT INTO t VALUES (1)")
        vfs.setRefusesFileGrowth(true)
        do {
            try connection.run("INSERT INTO t VALUES (zeroblob(100000))")
            Issue.record("a write that grows the file succeeded on a full disk")
        } catch {
            #expect(error.isDiskFull)
        }
        #expect(vfs.counters.refusedWrites > 0)
        #expect(try connection.scalarInt("SELECT COUNT(*) FROM t") == 1)
        vfs.setRefusesFileGrowth(false)
        try connection.run("INSERT INTO t VALUES (zeroblob(100000))")
        #expect(try connection.scalarInt("SELECT COUNT(*) FROM t") == 2)
        #expect(try connection.integrityCheck() == [])
    }
}
