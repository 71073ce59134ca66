/// A receipt photo as it is stored: a JPEG or PNG by its bytes (whatever the upload claims), its
/// metadata stripped (EXIF carries the phone's GPS position: a place outside any session), or refused.
///
/// Only the primary image is kept, up to its end marker: a phone's second image (a Multi-Picture
/// Format depth or gain map, each with its own EXIF and GPS) and whatever follows the end (a
/// motion photo's video) are dropped. Stripping is one pass into one output buffer.
struct ReceiptImage: Sendable, Equatable {
    var mediaType: String
    var bytes: [UInt8]

    init(_ upload: ArraySlice<UInt8>) throws(WebError) {
        if upload.starts(with: [0xFF, 0xD8, 0xFF]) {
            mediaType = "image/jpeg"
            bytes = try Self.strippedJPEG(upload)
        } else if upload.starts(with: Self.pngSignature) {
            mediaType = "image/png"
            bytes = try Self.strippedPNG(upload)
        } else {
            throw .refused("the receipt must be a JPEG or PNG photo")
        }
    }

    init(_ upload: [UInt8]) throws(WebError) { try self.init(upload[...]) }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The primary JPEG image up to its EOI, with only what decoding needs: the tables, frame and
    /// scans, the JFIF header, Adobe's colour transform and an ICC profile (colours, no place or
    /// person). Every other APPn (EXIF, XMP, MPF, IPTC, Photoshop, makers' own) and comments go.
    static func strippedJPEG(_ data: ArraySlice<UInt8>) throws(WebError) -> [UInt8] {
        let malformed = WebError.refused("the receipt is not a well-formed JPEG")
        var out: [UInt8] = []
        out.reserveCapacity(data.count)
        out += [0xFF, 0xD8]
        var index = data.startIndex + 2
        var scans = 0
        while index + 1 < data.endIndex {
            guard data[index] == 0xFF else { throw malformed }
            let marker = data[index + 1]
            if marker == 0xFF {  // a fill byte before a marker
                index += 1
                continue
            }
            if marker == 0xD9 {
                guard scans > 0 else { throw .refused("the receipt is not a well-formed JPEG (no image data)") }
                out += [0xFF, 0xD9]
                return out
            }
            if (0xD0...0xD7).contains(marker) || marker <= 0x01 || marker == 0xD8 { throw malformed }
            guard index + 4 <= data.endIndex else { throw malformed }
            let length = Int(data[index + 2]) << 8 | Int(data[index + 3])
            let segmentEnd = index + 2 + length
            guard length >= 2, segmentEnd <= data.endIndex else { throw malformed }
            if keepsJPEGSegment(marker, payload: data[(index + 4)..<segmentEnd]) { out += data[index..<segmentEnd] }
            index = segmentEnd
            if marker == 0xDA {
                // The entropy-coded data runs to the next marker that is neither a stuffed 0xFF00 nor a restart (RSTn).
                let scanEnd = try entropyCodedEnd(data, from: segmentEnd)
                out += data[segmentEnd..<scanEnd]
                index = scanEnd
                scans += 1
            }
        }
        throw .refused("the receipt is not a well-formed JPEG (it has no end)")
    }

    /// Where the entropy-coded data starting at `start` ends: the index of the marker after it.
    static func entropyCodedEnd(_ data: ArraySlice<UInt8>, from start: Int) throws(WebError) -> Int {
        var index = start
        while index + 1 < data.endIndex {
            guard data[index] == 0xFF else {
                index += 1
                continue
            }
            let next = data[index + 1]
            if next == 0x00 || (0xD0...0xD7).contains(next) {
                index += 2
            } else if next == 0xFF {
                index += 1
            } else {
                return index
            }
        }
        throw .refused("the receipt is not a well-formed JPEG (its image data has no end)")
    }

    /// Frame, tables and scan headers (0xC0 to 0xDF) are kept; of the APPn only JFIF, an ICC
    /// profile and Adobe's colour transform; comments, extensions and every other APPn go.
    static func keepsJPEGSegment(_ marker: UInt8, payload: ArraySlice<UInt8>) -> Bool {
        switch marker {
        case 0xC0...0xDF: true
        case 0xE0: payload.starts(with: Array("JFIF".utf8))
        case 0xE2: payload.starts(with: Array("ICC_PROFILE\0".utf8))
        case 0xEE: payload.starts(with: Array("Adobe".utf8))
        default: false
        }
    }

    /// The chunks a PNG decoder uses: the critical ones and those that set colours or transparency.
    /// Text, EXIF, time, and anything else ancillary go; so does everything after IEND.
    static let keptPNGChunks: Set<String> = ["IHDR", "PLTE", "IDAT", "IEND", "tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "sBIT", "bKGD", "pHYs"]

    /// The PNG up to its IEND with only `keptPNGChunks`; an unknown critical chunk is refused.
    static func strippedPNG(_ data: ArraySlice<UInt8>) throws(WebError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(data.count)
        out += pngSignature
        var index = data.startIndex + pngSignature.count
        while index + 12 <= data.endIndex {
            let length = data[index..<(index + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: data[(index + 4)..<(index + 8)], as: UTF8.self)
            let end = index + 12 + length
            guard end <= data.endIndex else { throw .refused("the receipt is not a well-formed PNG") }
            if index == data.startIndex + pngSignature.count, type != "IHDR" { throw .refused("the receipt is not a well-formed PNG (no header)") }
            if keptPNGChunks.contains(type) {
                out += data[index..<end]
            } else if let first = type.utf8.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") {
                throw .refused("the receipt is a PNG with a '\(type)' chunk this app does not take")
            }
            index = end
            if type == "IEND" { return out }
        }
        throw .refused("the receipt is not a well-formed PNG (no end)")
    }
}
