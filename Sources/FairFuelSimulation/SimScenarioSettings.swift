import FairFuelLink

/// How the GNSS receiver behind the MCU reports.
public struct GNSSSettings: Sendable, Equatable {
    /// Epochs per second: 1, 2, 5 or 10.
    public var rateHz = 1
    public var sentences: [GNSSSentenceKind] = [.rmc, .gga, .gsa]
    /// Two letters: GP, GN, GL, GA.
    public var talker = "GP"
    /// How long the receiver stays powered after the ignition goes off; nil: always on.
    public var keepAliveMs: Int64? = 120_000
    /// Time to first fix after power-up (a hot start).
    public var timeToFirstFixMs: Int64 = 3000
    /// One-sigma horizontal error of the fix, metres (a Gauss-Markov process, 60 s correlation).
    public var horizontalErrorMeters = 1.8

    public init() {}
}

public enum GNSSSentenceKind: String, Sendable, CaseIterable {
    case rmc, gga, gsa, vtg
}

/// The MCU's identity and boot behaviour; defaults match the FairFuel MCU rev B profile.
public struct MCUSettings: Sendable, Equatable {
    public var firmware: (major: UInt8, minor: UInt8, patch: UInt8) = (1, 4, 2)
    public var boardID: UInt16 = 0x0101
    public var capabilities: MCUCapabilities = [.nfcReader, .bleScanner, .gnss, .nfcWrite, .ignitionSense, .reliableEvents]
    public var name = "FairFuel MCU rev B"
    /// Uptime at the first HELLO (a value near 2^32 exercises the host's unwrapping).
    public var initialUptimeMs: UInt32 = 250
    /// From power-on (or reset) to the HELLO.
    public var bootMs: Int64 = 250
    /// How long BOOTLOADER keeps the MCU silent before it boots its application again.
    public var bootloaderMs: Int64 = 8000

    public init() {}

    public static func == (a: MCUSettings, b: MCUSettings) -> Bool {
        a.firmware == b.firmware && a.boardID == b.boardID && a.capabilities == b.capabilities
            && a.name == b.name && a.initialUptimeMs == b.initialUptimeMs && a.bootMs == b.bootMs
            && a.bootloaderMs == b.bootloaderMs
    }
}

/// The BLE receiver model.
public struct RadioSettings: Sendable, Equatable {
    /// Weakest advertisement the scanner reports.
    public var sensitivityDBm = -100.0
    /// Share of advertisements the scanner misses anyway (scan window duty, collisions).
    public var missRate = 0.08
    /// One-sigma slow shadowing, dB.
    public var shadowingDB = 3.5

    public init() {}
}

/// Corruption on the MCU-to-host line.
public struct LineNoiseSettings: Sendable, Equatable {
    /// Probability that a byte on the wire gets one bit flipped.
    public var byteErrorRate = 0.0
    /// Bursts of random bytes per minute (simulated time).
    public var garbageBurstsPerMinute = 0.0

    public init(byteErrorRate: Double = 0, garbageBurstsPerMinute: Double = 0) {
        self.byteErrorRate = byteErrorRate
        self.garbageBurstsPerMinute = garbageBurstsPerMinute
    }
}
