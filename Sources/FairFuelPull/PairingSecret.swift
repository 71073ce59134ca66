import FairFuelEdges

/// The secret a dongle and its owners share: 16 random bytes, shown once as 32 hex digits.
public struct PairingSecret: Sendable, Equatable, CustomStringConvertible {
    public static let byteCount = 16
    public let bytes: [UInt8]

    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    /// A fresh secret from the system's CSPRNG (getrandom(2) on Linux).
    public static func generate() -> PairingSecret {
        PairingSecret(bytes: PullNonce.random(count: byteCount))!
    }

    /// Parses 32 hex digits in any case; spaces, `-` and `:` between them are allowed.
    public init?(parsing text: String) {
        var digits: [UInt8] = []
        for scalar in text.unicodeScalars {
            if scalar == " " || scalar == "-" || scalar == ":" || scalar == "\n" || scalar == "\t" { continue }
            guard scalar.isASCII, let value = UInt8(String(scalar), radix: 16) else { return nil }
            digits.append(value)
        }
        guard digits.count == 2 * Self.byteCount else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) { bytes.append(digits[index] << 4 | digits[index + 1]) }
        self.bytes = bytes
    }

    /// Lower-case hex in groups of four, for a person to copy: `1a2b-3c4d-...`.
    public var display: String {
        var text = ""
        for (index, byte) in bytes.enumerated() {
            if index > 0 && index % 2 == 0 { text += "-" }
            text += Self.hex(byte)
        }
        return text
    }

    /// Plain lower-case hex, as stored.
    public var hex: String { bytes.map(Self.hex).joined() }

    /// Never prints the secret itself (it must not reach a log).
    public var description: String { "PairingSecret(redacted)" }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
    }
}

/// Nonces from the system's cryptographically secure generator.
public enum PullNonce {
    /// `count` random bytes; `SystemRandomNumberGenerator` reads getrandom(2) on Linux.
    public static func random(count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            var word = generator.next()
            for _ in 0..<8 where bytes.count < count {
                bytes.append(UInt8(word & 0xFF))
                word >>= 8
            }
        }
        return bytes
    }
}

extension PairingSecret {
    /// What a secret file may hold: the digits, dashes and a newline, with room to spare.
    public static let maximumFileBytes = 4_096

    /// The secret a file holds as `fairfuel provision pairing-secret` shows it (`pull --secret-file`,
    /// `hub command --secret-file`, `hub --secrets DIR`), or why it holds none.
    public static func read(file path: String) throws(PullClientError) -> PairingSecret {
        switch TextFileReader.readAll(path: path, maximumBytes: maximumFileBytes) {
        case let .success(bytes):
            guard let secret = PairingSecret(parsing: String(decoding: bytes, as: UTF8.self)) else {
                throw .file("\(path): a pairing secret is 32 hex digits (dashes allowed), as `fairfuel provision pairing-secret --generate` showed it")
            }
            return secret
        case let .failure(error):
            throw .file("cannot read the secret file: \(error)")
        }
    }
}
