/// A driver of the soak traffic: the tag they tap and the iBeacon fob they carry.
///
/// The soak store must provision these (`fairfuel synth-capture --soak --list-drivers`
/// prints them as `provision driver add` arguments) for taps to open sessions.
public struct SoakDriver: Sendable, Equatable {
    public var name: String
    /// ISO 14443-A UID, 7 bytes.
    public var tagUID: [UInt8]
    /// iBeacon minor under the soak family's proximity UUID, major 1.
    public var beaconMinor: UInt16

    /// The family's iBeacon proximity UUID: distinct from every stranger's in the crowd.
    public static let proximityUUID: [UInt8] = [
        0xFA, 0x1F, 0x0E, 0x15, 0x50, 0xA4, 0x4D, 0x1B, 0x9C, 0x3E, 0x2B, 0x7D, 0x00, 0x50, 0xAC, 0x01,
    ]

    public static let family: [SoakDriver] = [
        SoakDriver(name: "Anna", tagUID: [0x04, 0x5A, 0x10, 0x72, 0x9B, 0x61, 0x80], beaconMinor: 1),
        SoakDriver(name: "Ben", tagUID: [0x04, 0x5A, 0x20, 0x72, 0x9B, 0x61, 0x80], beaconMinor: 2),
        SoakDriver(name: "Cara", tagUID: [0x04, 0x5A, 0x30, 0x72, 0x9B, 0x61, 0x80], beaconMinor: 3),
    ]

    /// The tag as `fairfuel provision` reads it (`04:5A:...`).
    public var tagText: String {
        tagUID.map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return hex.count == 1 ? "0" + hex : hex
        }.joined(separator: ":")
    }

    /// The fob as a provisioning spec, `ibeacon:<uuid>:1:<minor>`.
    public var beaconSpec: String {
        var hex = ""
        for (index, byte) in Self.proximityUUID.enumerated() {
            if [4, 6, 8, 10].contains(index) { hex += "-" }
            let digits = String(byte, radix: 16)
            hex += digits.count == 1 ? "0" + digits : digits
        }
        return "ibeacon:\(hex):1:\(beaconMinor)"
    }

    /// The fob's advertising data: flags, then Apple's iBeacon manufacturer data.
    var advertisingData: [UInt8] {
        [0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15] + Self.proximityUUID
            + [0x00, 0x01, UInt8(beaconMinor >> 8), UInt8(beaconMinor & 0xFF), 0xC5]
    }
}

/// One trip of the soak day: who drives, when they get in, and how long they drive.
public struct SoakTripPlan: Sendable, Equatable {
    /// Index into `SoakDriver.family`.
    public var driver: Int
    /// Milliseconds after local midnight at which the driver reaches the car (before jitter).
    public var arrivalMsOfDay: Int64
    /// Time on the road, from pulling away to standing still at the destination.
    public var drivingMs: Int64

    public init(driver: Int, arrivalMsOfDay: Int64, drivingMs: Int64) {
        self.driver = driver
        self.arrivalMsOfDay = arrivalMsOfDay
        self.drivingMs = drivingMs
    }

    static func at(_ hour: Int64, _ minute: Int64, _ driver: Int, minutes: Int64) -> SoakTripPlan {
        SoakTripPlan(driver: driver, arrivalMsOfDay: (hour * 60 + minute) * 60_000, drivingMs: minutes * 60_000)
    }

    /// A family's weekday: commutes, a school run, errands and one long drive that covers
    /// the whole of 13:00 to 15:00, so two simulated hours are pure driving.
    public static let standardDay: [SoakTripPlan] = [
        .at(7, 30, 0, minutes: 35),
        .at(8, 20, 1, minutes: 20),
        .at(11, 0, 2, minutes: 45),
        .at(12, 50, 0, minutes: 140),
        .at(17, 30, 1, minutes: 40),
        .at(19, 15, 2, minutes: 25),
        .at(21, 0, 0, minutes: 30),
    ]
}

/// A trip as the generator plays it, in capture milliseconds.
public struct SoakTrip: Sendable, Equatable {
    public var driver: Int
    /// The driver reaches the car (the fob comes into the cabin).
    public var arrivalMs: Int64
    /// The tag read.
    public var tapMs: Int64
    public var driveStartMs: Int64
    /// Standing still at the destination.
    public var driveEndMs: Int64
    /// The driver walks away with the fob.
    public var leaveMs: Int64

    /// Offsets within a trip, from the arrival.
    static let tapAfterMs: Int64 = 20_000
    static let ignitionOnAfterMs: Int64 = 35_000
    static let driveAfterMs: Int64 = 45_000
    /// After the drive ends.
    static let ignitionOffAfterMs: Int64 = 20_000
    static let leaveAfterMs: Int64 = 50_000
}
