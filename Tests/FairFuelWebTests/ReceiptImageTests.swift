@testable import FairFuelWeb
import Testing

/// A receipt photo keeps its primary image and nothing that can hold a place: no EXIF or XMP (GPS),
/// no second MPF image, no trailer after the end, no PNG text or EXIF chunk.
struct ReceiptImageTests {
    typealias F = ReceiptFixtures

    @Test(arguments: [("baseline", F.baseline), ("progressive", F.progressive)])
    func aPhonesJPEGKeepsOnlyItsPrimaryImage(name: String, jpeg: [UInt8]) throws {
        let variants = [("EXIF, XMP, comment, IPTC", F.withMetadata(jpeg)), ("MPF pair", F.multiPicture(jpeg)), ("motion photo", F.motionPhoto(jpeg))]
        for (variant, upload) in variants {
            #expect(F.contains(upload, "GPS"), "the fixture \(variant) must carry a place")
            let stored = try ReceiptImage(upload)
            #expect(stored.mediaType == "image/jpeg")
            // The encoder's own bytes exactly: its JFIF header, tables, every scan (stuffing and restarts included), one EOI.
            #expect(stored.bytes == jpeg, "\(name), \(variant): \(stored.bytes.count) bytes stored of \(upload.count)")
            for needle in ["GPS", "Exif", "MPF", "xap", "ftyp", "Photoshop"] {
                #expect(!F.contains(stored.bytes, needle), "\(name), \(variant): \(needle) kept")
            }
        }
    }

    @Test func theFixturesHaveWhatTheStripperMustGetThrough() {
        #expect(F.baseline.indices.dropLast().contains { F.baseline[$0] == 0xFF && (0xD0...0xD7).contains(F.baseline[$0 + 1]) }, "no restart marker")
        #expect(F.baseline.indices.dropLast().contains { F.baseline[$0] == 0xFF && F.baseline[$0 + 1] == 0x00 }, "no 0xFF00 stuffing in the scan")
        #expect(F.progressive.indices.dropLast().filter { F.progressive[$0] == 0xFF && F.progressive[$0 + 1] == 0xDA }.count > 1, "one scan only")
    }

    @Test func anICCProfileStaysForItsColours() throws {
        let stored = try ReceiptImage(ReceiptFixtures.inserting(F.iccProfile + F.exifWithGPS, into: F.baseline))
        #expect(stored.bytes == ReceiptFixtures.inserting(F.iccProfile, into: F.baseline))
    }

    @Test func aPNGLosesItsTextEXIFAndWhatFollowsItsEnd() throws {
        let upload = F.pngWith(
            beforeData: [
                F.pngChunk("eXIf", Array("MM\0*GPS 48.8566 N".utf8)), F.pngChunk("tEXt", Array("Comment\0GPS 48.8566".utf8)),
                F.pngChunk("iTXt", Array("XML:com.adobe.xmp\0\0\0\0\0GPSLatitude".utf8)), F.pngChunk("zTXt", [0x61, 0, 0, 1, 2]),
                F.pngChunk("tIME", [7, 234, 11, 29, 6, 0, 0]), F.pngChunk("gAMA", [0, 0, 0xB1, 0x8F]),
            ],
            afterEnd: Array("GPS trailer after IEND".utf8))
        let stored = try ReceiptImage(upload)
        #expect(stored.mediaType == "image/png")
        #expect(stored.bytes == F.pngWith(beforeData: [F.pngChunk("gAMA", [0, 0, 0xB1, 0x8F])], afterEnd: []))
        #expect(!F.contains(stored.bytes, "GPS"))
        let chunks = try #require(F.pngChunks(stored.bytes))
        #expect(chunks.map(\.type) == ["IHDR", "gAMA", "IDAT", "IEND"] && chunks.allSatisfy(\.crcRight))
    }

    @Test func aBrokenOrUnknownImageIsRefused() {
        let truncated = Array(F.baseline.dropLast(2))
        let noScan = F.baseline.prefix(20) + [0xFF, 0xD9]
        for (name, upload) in [("no EOI", truncated), ("cut in its scan", Array(F.baseline.prefix(F.baseline.count / 2))), ("no scan", Array(noScan))] {
            #expect(throws: WebError.self, "\(name)") { try ReceiptImage(upload) }
        }
        #expect(throws: WebError.self) { try ReceiptImage(F.pngWith(beforeData: [F.pngChunk("ZZZZ", [1])], afterEnd: [])) }
        #expect(throws: WebError.self) { try ReceiptImage(Array(F.png.dropLast(12))) }  // no IEND
    }
}
