import FairFuelEdges
import Foundation
import Testing

@Suite struct TextFileReaderTests {
    static func file(_ contents: [UInt8]) -> String {
        let path = NSTemporaryDirectory() + "lines-\(UUID().uuidString).txt"
        FileManager.default.createFile(atPath: path, contents: Data(contents))
        return path
    }

    @Test func splitsLinesKeepingCRAndTheLastLineWithoutLF() throws {
        let path = Self.file(Array("a\r\nbb\n\nccc".utf8))
        var lines: [String] = []
        let result = TextFileReader(path: path).forEachLine { line, truncated in
            #expect(!truncated)
            lines.append(String(decoding: line, as: UTF8.self))
            return true
        }
        #expect(throws: Never.self) { try result.get() }
        #expect(lines == ["a\r", "bb", "", "ccc"])
    }

    @Test func overlongLinesAreCutAndFlagged() throws {
        let path = Self.file([UInt8](repeating: 0x41, count: 200_000) + [0x0A, 0x42])
        var seen: [(Int, Bool)] = []
        _ = TextFileReader(path: path, maximumLineBytes: 1_000).forEachLine { line, truncated in
            seen.append((line.count, truncated))
            return true
        }
        #expect(seen.map(\.0) == [1_000, 1])
        #expect(seen.map(\.1) == [true, false])
    }

    @Test func missingFileIsAnError() {
        let result = TextFileReader(path: "/no/such/file").forEachLine { _, _ in true }
        guard case let .failure(error) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.description == "cannot open /no/such/file: No such file or directory")
    }
}
