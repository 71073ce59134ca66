import Foundation

/// Receipt photos as phones send them, made here. The three JPEGs are real encoder output
/// (libjpeg-turbo's `cjpeg` of fixed pixels: a 16x16 random-noise image, seed 7, at quality 95
/// baseline with 1x1 sampling and a restart marker every MCU, so that the scan holds 0xFF00
/// stuffing and RSTn; the same progressive, ten scans; an 8x8 gradient at quality 50). The metadata
/// around them (EXIF with a GPS IFD, XMP, an MPF index, a motion photo's trailer) is built below
/// byte by byte, as the phones write it.
enum ReceiptFixtures {
    static func decoded(_ base64: String) -> [UInt8] { [UInt8](Data(base64Encoded: base64)!) }

    static let baseline: [UInt8] = decoded(
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAIBAQEBAQIBAQECAgICAgQDAgICAgUEBAMEBgUGBgYFBgYGBwkIBgcJBwYGCAsICQoKCgoKBggLDAsKDAkKCgr/" +
        "2wBDAQICAgICAgUDAwUKBwYHCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgr/wAARCAAQABADAREAAhEBAxEB/8QA" +
        "HwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkK" +
        "FhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXG" +
        "x8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAEC" +
        "AxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOE" +
        "hYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/90ABAAB/9oADAMBAAIRAxEAPwDm" +
        "9d8M+FPD3wlv/FX/AAhtqbzUtGv5Yb3wfptpHp+oT+fJHALieeWdYSth592DcTJvf/TriP7RbRi9+ozjO+GM4VTFVsYoYOOIcY88qVWUaqpqNZwockputUny" +
        "U1Wwde/tuSNNfVp1q9K8v4szeef5LTrRpvH0nH2VPEupSg8Y6kI3kqNGEKzw0q06ibtzVK1aMJUcNjFOP//Qq6/4o1PTfFuk6v8ABu6tfDtjbadrdvLrGk61" +
        "o9jEqPfxiWwe3tBqP2yzZVtNojhu2aCOAGzmCm4fWnSjLhPMMqxzwbx1fDwdJwo4qdXEctL2brxq1Z060cRCLrzlGvUw1Z4n6zfmcFOjrTweT5dmGGhmX1iM" +
        "sWo/V3CeLnKEaM6tBYOrVqy9j7OlXn71WlRSgowVaNGEHTpf/9HK1HwppPwd8d3XhGy03W/Fmi3pjv8AVL+xt9TsrLxNeC3063vbm6FgjrEF36dJ5ZgkWeWM" +
        "lEnk8q3i64YnOI5VmOVYjEf2bjo0JSw6kqUq9NqjX5FSr1KVCeIcalOWHo1r1a0aE5uFaMqn109/HcQ5VxlxbS+sVXTo16NHmwkZ1J4ytJ0pTo/WJwhhqn1i" +
        "n7ROdOjWnHC0qlKaw1H97Vqf/9J3h9Pgv4GutO0XwP8AFC2W40m4it7ATO2lreXFwkE13qjW1hLEbeyhZtSubhphcJBA4lP2q3tRbDh4yyXNMPhMRmk8nVPG" +
        "0IvSXPiJUZYf6yqELV4/V6uIxFLD4GnR/wBjoTr1IQlSjQ9t/aUOurRr46nj6OcutRjjpzo07q8Z+zqVZu2IcXXcfbv6xUlTrxwlGU6dCpCOPqVIn//Z")

    static let progressive: [UInt8] = decoded(
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAIBAQEBAQIBAQECAgICAgQDAgICAgUEBAMEBgUGBgYFBgYGBwkIBgcJBwYGCAsICQoKCgoKBggLDAsKDAkKCgr/" +
        "2wBDAQICAgICAgUDAwUKBwYHCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgr/wgARCAAQABADASIAAhEBAxEB/8QA" +
        "FgABAQEAAAAAAAAAAAAAAAAABAMF/8QAFAEBAAAAAAAAAAAAAAAAAAAAA//aAAwDAQACEAMQAAABzWxYrf/EABgQAQEBAQEAAAAAAAAAAAAAAAQDBQIV/9oA" +
        "CAEBAAEFArmKfJuqk10LLHcfxQ9f/8QAHREBAAEEAwEAAAAAAAAAAAAAAQIREiFBAyIxMv/aAAgBAwEBPwH1UmcoSbVNgFZbLsRy1z8Nvb//xAAcEQACAgMB" +
        "AQAAAAAAAAAAAAABAgMREiExBEL/2gAIAQIBAT8B9M8kqGbDLRvRHbVgKJoj4VgvdkgMq//EACUQAAICAQIGAgMAAAAAAAAAAAECAxIRBCIABSEjMTITFEFD" +
        "Yv/aAAgBAQAGPwJ9V9NbyQuQ+jjURyHJAsSTjZltx/thZReKXkzLp0WOZTNFNCg9xlKr8l09fAboBsPtw2kSObVwvh5XRZETUvWNXZqeP1nGDkj8nCiOHQ80" +
        "W0TBUz2rs2C0tUIqg7jNm2B13KteP//EABkQAQEAAwEAAAAAAAAAAAAAAAERACExQf/aAAgBAQABPyHxvqmMtnna5ALbyNDZ2gJreVrj9paQNIuhahkAFFRo" +
        "A9UKyT4r/9oADAMBAAIAAwAAABAv/8QAFxEBAQEBAAAAAAAAAAAAAAAAAREAMf/aAAgBAwEBPxBEoBGnXjABwui1z//EABgRAAMBAQAAAAAAAAAAAAAAAAER" +
        "IQAx/9oACAECAQE/ELDOuYHQB1CDaY//xAAYEAEBAQEBAAAAAAAAAAAAAAABEQAhQf/aAAgBAQABPxC2iHSMryO+HC0qg6C47yCCVBZclIpwWO9YzO6iohVA" +
        "08Qge4D/AP/Z")

    static let secondImage: [UInt8] = decoded(
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/" +
        "2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAAIAAgDASIAAhEBAxEB/8QA" +
        "HwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkK" +
        "FhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXG" +
        "x8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAEC" +
        "AxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOE" +
        "hYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwCOJOLaLZ2Q" +
        "+Xs92527P12f8C7UUUVcOpMtkf/Z")

    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// APP1 EXIF: IFD0 with one entry, the GPS IFD pointer (0x8825), and a GPS IFD with the latitude's reference.
    static let exifWithGPS: [UInt8] = segment(
        0xE1,
        Array("Exif\0\0".utf8) + Array("MM".utf8) + [0x00, 0x2A, 0, 0, 0, 8]
            + [0, 1] + [0x88, 0x25, 0, 4, 0, 0, 0, 1, 0, 0, 0, 26] + [0, 0, 0, 0]
            + [0, 1] + [0x00, 0x01, 0, 2, 0, 0, 0, 2] + Array("N\0".utf8) + [0, 0] + [0, 0, 0, 0]
            + Array("GPS 48.8566 N 2.3522 E".utf8))
    /// APP1 XMP with the same place in its own words.
    static let xmpWithGPS: [UInt8] = segment(
        0xE1, Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta><exif:GPSLatitude>48,51.4N</exif:GPSLatitude></x:xmpmeta>".utf8))
    /// APP2 MPF: the index of a second image (offsets are not checked by the stripper, which drops it whole).
    static let multiPictureIndex: [UInt8] = segment(0xE2, Array("MPF\0".utf8) + Array("MM".utf8) + [0x00, 0x2A, 0, 0, 0, 8, 0, 0])
    static let iccProfile: [UInt8] = segment(0xE2, Array("ICC_PROFILE\0".utf8) + [1, 1] + [UInt8](repeating: 0x42, count: 32))
    static let comment: [UInt8] = segment(0xFE, Array("taken at 48.8566,2.3522".utf8))
    static let photoshop: [UInt8] = segment(0xED, Array("Photoshop 3.0\0".utf8) + Array("8BIM GPS".utf8))

    /// `jpeg` with `segments` right after its SOI.
    static func inserting(_ segments: [UInt8], into jpeg: [UInt8]) -> [UInt8] {
        Array(jpeg.prefix(2)) + segments + jpeg.dropFirst(2)
    }

    /// A phone's photo: EXIF, XMP, a comment and Photoshop's IPTC before the image.
    static func withMetadata(_ jpeg: [UInt8]) -> [UInt8] { inserting(exifWithGPS + xmpWithGPS + comment + photoshop, into: jpeg) }

    /// Multi-Picture Format: the primary with its MPF index, then a second image with its own EXIF and GPS.
    static func multiPicture(_ jpeg: [UInt8]) -> [UInt8] {
        inserting(exifWithGPS + multiPictureIndex, into: jpeg) + inserting(exifWithGPS, into: secondImage)
    }

    /// A motion photo: the still, then an MP4 after its EOI (a Pixel's trailer), with a place of its own.
    static func motionPhoto(_ jpeg: [UInt8]) -> [UInt8] {
        withMetadata(jpeg) + [0, 0, 0, 0x18] + Array("ftypmp42".utf8) + [UInt8](repeating: 0, count: 12) + Array("GPS +48.8566+002.3522/".utf8)
    }

    /// Whether `bytes` holds `needle` anywhere.
    static func contains(_ bytes: [UInt8], _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard bytes.count >= pattern.count else { return false }
        return (0...(bytes.count - pattern.count)).contains { bytes[$0..<($0 + pattern.count)].elementsEqual(pattern) }
    }

    // MARK: PNG

    /// A real 2x2 RGB PNG: its IDAT a zlib stream of one stored deflate block, CRCs computed.
    static let png: [UInt8] = pngWith(beforeData: [], afterEnd: [])

    /// The same image with metadata chunks before its data, and bytes after its IEND.
    static func pngWith(beforeData: [[UInt8]], afterEnd: [UInt8]) -> [UInt8] {
        let raw: [UInt8] = [0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255]
        let adler = adler32(raw)
        let zlib: [UInt8] = [0x78, 0x01, 0x01, UInt8(raw.count & 0xFF), UInt8(raw.count >> 8), ~UInt8(raw.count & 0xFF), ~UInt8(raw.count >> 8)]
            + raw + bigEndian(adler)
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + pngChunk("IHDR", bigEndian(2) + bigEndian(2) + [8, 2, 0, 0, 0])
            + beforeData.joined() + pngChunk("IDAT", zlib) + pngChunk("IEND", []) + afterEnd
    }

    static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)] }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    /// Every chunk of a PNG, its type and whether its CRC is right; nil when the chunks overrun.
    static func pngChunks(_ bytes: [UInt8]) -> [(type: String, crcRight: Bool)]? {
        var chunks: [(String, Bool)] = []
        var index = 8
        while index + 12 <= bytes.count {
            let length = Int(bytes[index]) << 24 | Int(bytes[index + 1]) << 16 | Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            guard index + 12 + length <= bytes.count else { return nil }
            let typed = Array(bytes[(index + 4)..<(index + 8 + length)])
            chunks.append((String(decoding: typed.prefix(4), as: UTF8.self), bigEndian(crc32(typed)) == Array(bytes[(index + 8 + length)..<(index + 12 + length)])))
            index += 12 + length
        }
        return index == bytes.count ? chunks : nil
    }
}
