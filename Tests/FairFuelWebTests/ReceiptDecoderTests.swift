@testable import FairFuelWeb
import Foundation
import Testing
import TestSupport

/// The stored receipt still decodes: libjpeg-turbo's `djpeg` (Debian's libjpeg-turbo-progs) gives the
/// same pixels for the stripped upload as for the encoder's own file.
@Suite(.tags(.integration))
struct ReceiptDecoderTests {
    static let djpeg = "/usr/bin/djpeg"

    func pixels(_ jpeg: [UInt8]) throws -> (status: Int32, output: String) {
        let path = NSTemporaryDirectory() + "fairfuel-receipt-\(UUID().uuidString.prefix(8)).jpg"
        try Data(jpeg).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try ProgramRun.run(Self.djpeg, ["-pnm", path])
    }

    @Test func aStrippedReceiptDecodesToTheSamePixels() throws {
        TestTier.require(.integration, for: "a decoder process (djpeg)")
        guard FileManager.default.isExecutableFile(atPath: Self.djpeg) else {
            print("skip: no djpeg to decode with (apt-get install libjpeg-turbo-progs)")
            return
        }
        for jpeg in [ReceiptFixtures.baseline, ReceiptFixtures.progressive] {
            let original = try pixels(jpeg)
            #expect(original.status == 0 && original.output.hasPrefix("P6"), "\(original.output.prefix(200))")
            for upload in [ReceiptFixtures.withMetadata(jpeg), ReceiptFixtures.multiPicture(jpeg), ReceiptFixtures.motionPhoto(jpeg)] {
                let stored = try pixels(try ReceiptImage(upload).bytes)
                #expect(stored.status == 0 && stored.output == original.output, "\(stored.output.prefix(200))")
            }
        }
    }
}
