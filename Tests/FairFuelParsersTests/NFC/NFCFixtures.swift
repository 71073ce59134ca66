import FairFuelCore
import Foundation
import TestSupport

/// Test vectors for the NFC parsers: ndeflib's from the bundle; GPL/EUPL/LGPL ones from `../shared`.
enum NFCFixtures {
    /// `Fixtures/nfc/<source>/<file>` from the test bundle.
    static func bundled(_ source: String, _ file: String) throws -> URL {
        guard let root = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            throw VectorFileError.missing("Fixtures in the test bundle")
        }
        return root.appendingPathComponent("nfc").appendingPathComponent(source)
            .appendingPathComponent(file)
    }

    /// `../shared/corpus/nfc/<path>`, for test data whose licence forbids copying it here.
    static func corpus(_ path: String) -> String { PackagePaths.shared + "/corpus/nfc/" + path }

    static func present(_ path: String) -> Bool { FileManager.default.fileExists(atPath: corpus(path)) }

    static func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    /// Hex with optional spaces, either case.
    static func bytes(_ hex: some StringProtocol) throws -> [UInt8] {
        guard let bytes = Hex.bytes(String(hex.filter { !$0.isWhitespace })) else {
            throw VectorFileError.malformed(String(hex))
        }
        return bytes
    }

    /// Tab-separated rows after the header row.
    static func tsvRows(_ text: String) -> [[String]] {
        text.split(separator: "\n").dropFirst().map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
    }
}
