/// An MCU firmware version as HELLO carries it: `major.minor.patch`, each 0...255.
public struct FirmwareVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var major: UInt8
    public var minor: UInt8
    public var patch: UInt8

    public init(major: UInt8, minor: UInt8, patch: UInt8) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// Parses `1.4.0`: three decimal numbers 0...255 without leading zeros; nil otherwise.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var numbers: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                part == "0" || part.first != "0", let number = UInt8(part)
            else { return nil }
            numbers.append(number)
        }
        self.init(major: numbers[0], minor: numbers[1], patch: numbers[2])
    }

    public static func < (a: FirmwareVersion, b: FirmwareVersion) -> Bool {
        (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch)
    }

    public var description: String { "\(major).\(minor).\(patch)" }
}
