import FairFuelReports
import Foundation
import Testing
import TestSupport

@Suite struct HTMLReportTests {
    /// Regenerate with: FAIRFUEL_REGENERATE_GOLDEN=1 swift test --filter HTMLReportTests (then review the diff).
    @Test func pageMatchesItsGoldenFile() throws {
        let page = ExportSample.report()
        #expect(page == (try Golden.expected(at: ExportSample.fixtures + "/report-2026-11.html", actual: page)))
    }

    @Test func pageIsSelfContained() {
        let page = ExportSample.report()
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(!page.contains("<script"))
        #expect(!page.contains("http://") || !page.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "").contains("http://"))
        #expect(!page.contains("https://"))
        #expect(!page.contains("<link"))
        #expect(page.components(separatedBy: "<svg ").count - 1 == 2)
        #expect(page.contains("Family car &lt;Clio&gt;"))
        #expect(page.contains("Bob &quot;the builder&quot;, Jr."))
        // The month's trips only: trip 3 is in December.
        #expect(page.contains("2026-11-20 11:00"))
        #expect(!page.contains("2026-12-01 08:00"))
    }

    @Test func imperialPagesSpeakMilesAndMPG() {
        let page = ExportSample.report(units: ExportSample.imperial)
        #expect(page.contains(" mi</td>"))
        #expect(page.contains("mpg"))
        #expect(!page.contains(" km</td>"))
    }

    /// Renders the page in headless Chromium and checks the screenshot shows the charts.
    @Test(.tags(.integration)) func chromiumRendersANonBlankPage() throws {
        guard let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: FileManager.default.isExecutableFile) else {
            print("SKIPPED chromiumRendersANonBlankPage: chromium is not installed (scripts/install-deps.sh installs it)")
            return
        }
        let directory = NSTemporaryDirectory() + "fairfuel-report-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let html = directory + "/report.html"
        let png = directory + "/report.png"
        try ExportSample.report().write(toFile: html, atomically: true, encoding: .utf8)
        let status = try run(chromium, [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=\(directory)/profile",
            "--screenshot=\(png)", "--window-size=1200,1600", "file://\(html)",
        ])
        #expect(status == 0)
        #expect(FileManager.default.fileExists(atPath: png), "chromium wrote no screenshot")
        let stats = try PNGStatistics(path: png)
        #expect(stats.width == 1200 && stats.height == 1600)
        // Text, tables and two charts: far from blank, and in colour (the bars and lines).
        #expect(stats.nonWhiteShare > 0.03, "\(stats)")
        #expect(stats.distinctColours > 50, "\(stats)")
        #expect(stats.saturatedPixels > 2_000, "\(stats)")
    }

    func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// Counts of a PNG's pixels, decoded by python3's zlib (a test-only helper).
struct PNGStatistics: CustomStringConvertible {
    var width = 0
    var height = 0
    var nonWhiteShare = 0.0
    var distinctColours = 0
    /// Pixels whose channels differ by more than 60: the charts' colours, not grey text.
    var saturatedPixels = 0

    static let script = """
        import sys, zlib, struct
        data = open(sys.argv[1], 'rb').read()
        assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n', 'not a PNG'
        pos, idat = 8, b''
        while pos < len(data):
            length, kind = struct.unpack('>I4s', data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + length]
            if kind == b'IHDR':
                width, height, depth, colour = struct.unpack('>IIBB', body[:10])
            elif kind == b'IDAT':
                idat += body
            pos += 12 + length
        assert depth == 8 and colour in (2, 6), 'unexpected PNG format'
        bpp = 3 if colour == 2 else 4
        raw = zlib.decompress(idat)
        stride = width * bpp
        previous = bytearray(stride)
        nonwhite = saturated = 0
        colours = set()
        for row in range(height):
            start = row * (stride + 1)
            kind = raw[start]
            line = bytearray(raw[start + 1:start + 1 + stride])
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = previous[i]
                c = previous[i - bpp] if i >= bpp else 0
                if kind == 1: line[i] = (line[i] + a) & 255
                elif kind == 2: line[i] = (line[i] + b) & 255
                elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
                elif kind == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            for i in range(0, stride, bpp):
                r, g, bl = line[i], line[i + 1], line[i + 2]
                if r < 245 or g < 245 or bl < 245: nonwhite += 1
                if max(r, g, bl) - min(r, g, bl) > 60: saturated += 1
                colours.add((r, g, bl))
            previous = line
        print(width, height, nonwhite / (width * height), len(colours), saturated)
        """

    init(path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script, path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard process.terminationStatus == 0, fields.count == 5 else {
            throw PNGError(message: "cannot decode \(path): \(String(decoding: data, as: UTF8.self))")
        }
        width = Int(fields[0]) ?? 0
        height = Int(fields[1]) ?? 0
        nonWhiteShare = Double(fields[2]) ?? 0
        distinctColours = Int(fields[3]) ?? 0
        saturatedPixels = Int(fields[4]) ?? 0
    }

    var description: String {
        "\(width)x\(height), \(Int(nonWhiteShare * 1000)) per mille not white, \(distinctColours) colours, \(saturatedPixels) saturated"
    }
}

struct PNGError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
