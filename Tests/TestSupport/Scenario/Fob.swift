import FairFuelCore
import FairFuelParsers

/// A driver's iBeacon key fob: what it sends and how strongly.
public struct Fob: Sendable {
    /// The fob's static random address.
    public var address: BLEAddress
    public var proximityUUID: UUID128
    public var major: UInt16
    public var minor: UInt16
    /// Advertising interval, ms (the BLE controller adds 0 to 10 ms of random delay).
    public var intervalMs: Double
    /// Transmit power below nominal, dB (a dying battery: 10 to 15).
    public var weakenedByDB = 0.0
    /// Adverts the scanner misses (its duty cycle), on top of those too weak to hear.
    public var missedFraction = 0.25

    public init(address: BLEAddress, proximityUUID: UUID128, major: UInt16, minor: UInt16, intervalMs: Double) {
        self.address = address
        self.proximityUUID = proximityUUID
        self.major = major
        self.minor = minor
        self.intervalMs = intervalMs
    }

    public var identity: BeaconIdentity { .iBeacon(proximityUUID: proximityUUID, major: major, minor: minor) }

    /// Flags plus the iBeacon manufacturer data (measured power -59 dBm at 1 m).
    public var advertisingData: [UInt8] {
        [0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15] + proximityUUID.bytes
            + [UInt8(major >> 8), UInt8(major & 0xFF), UInt8(minor >> 8), UInt8(minor & 0xFF), 0xC5]
    }

    /// A dying battery: weaker and sparser adverts.
    public var dying: Fob {
        var fob = self
        fob.weakenedByDB = 13
        fob.intervalMs = 2_500
        fob.missedFraction = 0.4
        return fob
    }
}
