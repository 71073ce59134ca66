/// Consistent Overhead Byte Stuffing (Cheshire & Baker 1999).
///
/// One implementation for every side: the frame decoder (`LinkFramer`) decodes into its
/// fixed body buffer with the span form; the whole-buffer forms serve the encoder, tests and tools.
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

    /// Decodes one COBS block sequence into the front of `output` and returns the decoded
    /// length; nil when a code is 0 or overruns the input, or `output` is too small. `encoded`
    /// holds no 0x00 (the framer cuts at them; the whole-buffer form checks), so data bytes are
    /// copied unchecked. Allocates nothing: the frame decoder's path, and the one decoder of the project.
    public static func decode(_ encoded: Span<UInt8>, into output: inout MutableSpan<UInt8>) -> Int? {
        let end = encoded.count
        let capacity = output.count
        var read = 0
        var written = 0
        while read < end {
            let code = Int(encoded[unchecked: read])
            let blockEnd = read + code
            guard code != 0, blockEnd <= end, written + code - 1 <= capacity else { return nil }
            read += 1
            while read < blockEnd {
                output[unchecked: written] = encoded[unchecked: read]
                written += 1
                read += 1
            }
            if code != 0xFF && read < end {
                guard written < capacity else { return nil }
                output[unchecked: written] = 0
                written += 1
            }
        }
        return written
    }

    /// Decodes one COBS block sequence (no 0x00 inside); nil when the codes overrun or a 0x00 appears.
    public static func decode<C: Collection>(_ encoded: C) -> [UInt8]? where C.Element == UInt8 {
        let input = Array(encoded)
        guard !input.contains(0) else { return nil }
        // Decoding only ever shortens: the input's length is room enough.
        var out = [UInt8](repeating: 0, count: input.count)
        var length: Int?
        do {
            var span = out.mutableSpan
            length = decode(input.span, into: &span)
        }
        guard let length else { return nil }
        out.removeLast(out.count - length)
        return out
    }
}
