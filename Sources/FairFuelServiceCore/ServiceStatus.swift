import FairFuelCore
import FairFuelLink

/// What the core knows for `status`, as plain values: the link, GNSS, the beacons in range and
/// the session. The shell adds its own (the store, gpsd's connection, the uplink) and formats it.
public struct ServiceStatus: Sendable {
    public var link: Link
    public var gnss: GNSS
    /// The beacons heard, one per fob, strongest first (at most 16).
    public var beacons: [Fob]
    public var session: Session

    public struct Link: Sendable {
        public enum State: String, Sendable {
            case up, down
            /// The port may be open; the MCU sends nothing.
            case silent
        }

        public var state: State
        public var port: String
        /// How the port was opened; nil while down.
        public var opener: String?
        public var reconnects: Int
        /// Host time since the last frame (nil before the first) and since silence began (nil while the MCU talks).
        public var lastFrameAgeMs: Int64?
        public var silentMs: Int64?
        /// What the MCU's HELLO said (nil before one).
        public var firmware: (major: UInt8, minor: UInt8, patch: UInt8, boardID: UInt16)?
        public var firmwareWarning: String?
        /// Revision 1.1: whether the MCU repeats taps and ignition changes until acknowledged.
        public var reliableEvents: Bool
        public var eventAcks: UInt64
        public var frames: LinkCounters
        /// Domain time (the MCU's clock, extrapolated) and the MCU reboots it has seen.
        public var timeMs: Int64
        public var mcuReboots: Int
    }

    public struct GNSS: Sendable {
        public var fixesRejected: UInt64
        public var badEpochs: Int
        public var utcKnown: Bool
        public var source: String
        /// Whether the last accepted fix is current, and its age in link time (nil: none yet).
        public var fix: Bool
        public var fixAgeMs: Int64?
        /// gpsd's last fix (with gpsd as the source): its mode and satellites used.
        public var gpsdMode: Int?
        public var satellites: Int?
        /// MCU NMEA frames left unused because gpsd is the source.
        public var mcuNMEAIgnored: Int
    }

    /// One fob: the identity its driver is provisioned with leads, its other identities follow.
    public struct Fob: Sendable {
        public var beacon: String
        public var also: [String]
        public var driver: String?
        public var rssiDBm: Double
        public var present: Bool
        public var heardAgoMs: Int64
    }

    public struct Session: Sendable {
        public var state: String
        public var driver: String?
        /// The open trip's distance; nil without one.
        public var kilometers: Double?
        public var fuelScale: Double
        public var untrackedPolicy: String
        /// A trip that may go on without a tap: whose, and after what (`restart`, `stop`).
        public var continuation: (driver: String?, after: String)?
    }
}
