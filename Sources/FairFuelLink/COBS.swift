/// Consistent Overhead Byte Stuffing (Cheshire & Baker 1999).
///
/// The streaming decoder in `FrameDecoder` decodes on the fly; these whole-buffer
/// forms serve the encoder, the tests and tools.
public enum COBS {
    /// Appends the COBS encoding of `bytes` (without the 0x00 delimiter) to `out`.
    public static func encode<C: Collection>(_ bytes: C, into out: inout [UInt8])
    where C.Element == UInt8 {
        var codeIndex = out.count
        out.append(0)  // placeholder for the first code byte
        var code: UInt8 = 1
        for byte in bytes {
            if byte == 0 {
                out[codeIndex] = code
                codeIndex = out.count
                out.append(0)
                code = 1
            } else {
                out.append(byte)
                code += 1
                if code == 0xFF {
                    out[codeIndex] = code
                    codeIndex = out.count
                    out.append(0)
                    code = 1
                }
            }
        }
        out[codeIndex] = code
    }

    /// The COBS encoding of `bytes`, without the delimiter.
    public static func encode<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 254 + 1)
        encode(bytes, into: &out)
        return out
    }

    /// Decodes one COBS block sequence (no 0x00 inside); nil when the codes overrun or a 0x00 appears.
    public static func decode<C: Collection>(_ encoded: C) -> [UInt8]? where C.Element == UInt8 {
        let input = Array(encoded)
        var out: [UInt8] = []
        out.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let code = Int(input[index])
            guard code != 0, index + code <= input.count else { return nil }
            for offset in 1..<code {
                let byte = input[index + offset]
                guard byte != 0 else { return nil }
                out.append(byte)
            }
            index += code
            if code != 0xFF && index < input.count { out.append(0) }
        }
        return out
    }
}
