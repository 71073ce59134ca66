/// A receipt photo as it is stored: a JPEG or PNG by its bytes (whatever the upload claims), its
/// metadata stripped (EXIF carries the phone's GPS position: a place outside any session), or refused.
struct ReceiptImage: Sendable, Equatable {
    var mediaType: String
    var bytes: [UInt8]

    init(_ upload: [UInt8]) throws(WebError) {
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

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The JPEG without its APP1 to APP15 segments (EXIF, XMP, ICC) and comments; the image data as it was.
    static func strippedJPEG(_ data: [UInt8]) throws(WebError) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        var index = 2
        while index + 4 <= data.count {
            guard data[index] == 0xFF else { throw .refused("the receipt is not a well-formed JPEG") }
            let marker = data[index + 1]
            if marker == 0xDA || marker == 0xD9 {
                // Start of scan: the entropy-coded image and the end marker follow, kept as they are.
                out += data[index...]
                return out
            }
            let length = Int(data[index + 2]) << 8 | Int(data[index + 3])
            guard length >= 2, index + 2 + length <= data.count else { throw .refused("the receipt is not a well-formed JPEG") }
            let isMetadata = (0xE1...0xEF).contains(marker) || marker == 0xFE
            if !isMetadata { out += data[index..<(index + 2 + length)] }
            index += 2 + length
        }
        throw .refused("the receipt is not a well-formed JPEG (no image data)")
    }

    /// The PNG without its text, time and EXIF chunks.
    static func strippedPNG(_ data: [UInt8]) throws(WebError) -> [UInt8] {
        var out = pngSignature
        var index = pngSignature.count
        let dropped: Set<String> = ["eXIf", "tEXt", "zTXt", "iTXt", "tIME"]
        while index + 12 <= data.count {
            let length = data[index..<(index + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: data[(index + 4)..<(index + 8)], as: UTF8.self)
            let end = index + 12 + length
            guard length >= 0, end <= data.count else { throw .refused("the receipt is not a well-formed PNG") }
            if !dropped.contains(type) { out += data[index..<end] }
            index = end
            if type == "IEND" { return out }
        }
        throw .refused("the receipt is not a well-formed PNG (no end)")
    }
}
