import FairFuelParsers

/// Every buffer size, budget and device path the service uses on one kind of host board.
///
/// Read from `boards/<name>.toml` with `load(text:)` or `load(path:)`; a key
/// the file leaves out keeps its `piZero2W` value. `boards/README.md`
/// documents each key and how the Pi Zero 2 W values were sized.
public struct BoardProfile: Sendable, Equatable {
    /// `[board]`: the host computer.
    public struct Board: Sendable, Equatable {
        /// The profile's name, equal to its file name without `.toml`.
        public var name: String
        /// A line for people: what hardware this is.
        public var description: String
        /// Installed RAM in MiB.
        public var ramMB: Int
        public var storage: StorageKind
        /// Size of the storage medium in bytes (what the card or disk is sold as).
        public var storageBytes: Int64
    }

    /// The medium the store lives on; SD cards wear and stall, so they get the smallest budgets.
    public enum StorageKind: String, Sendable, CaseIterable {
        case sdCard = "sd"
        case emmc
        case ssd
    }

    /// `[link]`: the serial link to the MCU.
    public struct Link: Sendable, Equatable {
        /// The MCU's serial port; udev's `99-fairfuel-mcu.rules` makes `/dev/fairfuel-mcu`.
        public var port: String
        /// Line rate the host sets; a UART-wired MCU must use the same (USB CDC-ACM ignores it).
        public var baud: Int
        /// Capacity of the receive `ByteRing` in bytes; at least one encoded frame and its delimiter (259).
        public var receiveRingBytes: Int
        /// Host-to-MCU frames that may wait for sending or for their ACK.
        public var transmitQueueFrames: Int
        /// First wait before reopening a lost port, in milliseconds; doubled after each failure.
        public var reconnectBackoffMinMs: Int
        /// Longest wait between reopen attempts, in milliseconds.
        public var reconnectBackoffMaxMs: Int
        /// Milliseconds without a single frame (the MCU sends a HEARTBEAT every second) after which
        /// the service counts the MCU as silent, warns, and closes and reopens the port.
        public var mcuSilenceLimitMs: Int = 10_000
        /// Name of the expected MCU profile (`boards/mcu-<name>.toml`).
        public var mcuBoard: String
    }

    /// `[gnss]`: where position fixes come from.
    public struct GNSS: Sendable, Equatable {
        public var source: GNSSSource
        /// gpsd's address when `source` is `.gpsd`.
        public var gpsdHost: String
        public var gpsdPort: Int
        /// Accept NMEA sentences without a `*HH` checksum (`NMEAConfiguration.allowMissingChecksum`).
        public var allowMissingChecksum: Bool
        /// Highest fix rate the receiver is expected to send, in epochs per second.
        public var maxEpochHz: Int
        /// Longest packet the GNSS lexer keeps whole (NMEA or binary); its buffer is twice this.
        public var maxPacketBytes: Int = GNSSPacketLexer.defaultMaximumPacketBytes
    }

    /// Where NMEA comes from: the MCU's NMEA frames, or a local gpsd.
    public enum GNSSSource: String, Sendable, CaseIterable {
        case mcu
        case gpsd
    }

    /// `[ble]`: beacon tracking.
    public struct BLE: Sendable, Equatable {
        /// Beacons tracked at once; the least recently heard is dropped past this.
        public var beaconsInRangeCapacity: Int
        /// RSSI samples kept per beacon for smoothing.
        public var rssiWindowSamples: Int
    }

    /// `[session]`: the queue between the link reader and the session machine.
    public struct Session: Sendable, Equatable {
        /// Decoded events that may wait for the session machine.
        public var eventQueueCapacity: Int
        /// Continuity (README): a stop up to this long keeps one trip when the driver drives on without a tap.
        public var sameTripMaxStopSeconds: Int = 1_200
        /// Up to this long, the drive on is a new session for the same driver.
        public var newTripMaxStopSeconds: Int = 10_800
        /// How long after moving off the last driver's beacon may still turn up.
        public var continuityDecisionSeconds: Int = 30
    }

    /// `[store]`: the SQLite database and its retention.
    public struct Store: Sendable, Equatable {
        /// The database file.
        public var path: String
        /// Longest time a trip point waits in memory before it is written, in seconds.
        public var tripPointFlushSeconds: Int
        /// Trip points buffered before a write, whatever the time.
        public var tripPointFlushPoints: Int
        /// Trip points kept per second of driving (fixes in between are dropped).
        public var tripPointKeepHz: Int
        /// Most the database may take on disk, in bytes; the oldest trips go first past it.
        public var diskBudgetBytes: Int64
        /// Trip points older than this many days are deleted.
        public var tripPointMaxAgeDays: Int
        /// Rows kept in the event log; the oldest go first.
        public var eventLogMaxRows: Int
        /// Most memory SQLite's page cache may hold, in KiB (`PRAGMA cache_size = -N`).
        public var pageCacheKiB: Int
        /// Largest WAL between checkpoints, in bytes (`wal_autocheckpoint`, `journal_size_limit`).
        public var walLimitBytes: Int64 = 4_194_304
        /// Space held in a reserve file beside the store for sessions when the disk fills, in bytes.
        public var diskReserveBytes: Int64 = 1_048_576
        /// Session starts and ends and untracked records held in memory while the store refuses
        /// writes; past it each further one is counted lost (never silently dropped).
        public var pendingRecordsMax: Int = 64
    }

    /// `[control]`: the local control socket used by the `fairfuel` CLI.
    public struct Control: Sendable, Equatable {
        public var socketPath: String
        /// Group that owns the socket; its members may use the CLI.
        public var group: String
        /// Permission bits of the socket, e.g. `0o660`.
        public var socketMode: Int
        /// Clients served at once; one more is refused until another leaves.
        public var maxClients: Int
    }

    /// `[usb_pull]`: the dongle's own USB gadget serial port, for pulling trips to a laptop.
    public struct USBPull: Sendable, Equatable {
        public var enabled: Bool
        /// The gadget's tty on the dongle, e.g. `/dev/ttyGS0`.
        public var port: String
        /// USB vendor id the gadget presents to a laptop (pid.codes 0x1209).
        public var usbVendorID: UInt16
        /// USB product id the gadget presents to a laptop (0x4647, FairFuel dongle).
        public var usbProductID: UInt16
    }

    /// `[service]`: process-wide limits.
    public struct Service: Sendable, Equatable {
        /// systemd watchdog interval in seconds (the service pings at half of it); 0 turns it off.
        public var watchdogSeconds: Int
        /// Resident memory the service is built to stay under, in bytes.
        public var memoryTargetBytes: Int
    }

    public var board: Board
    public var link: Link
    public var gnss: GNSS
    public var ble: BLE
    public var session: Session
    public var store: Store
    public var control: Control
    public var usbPull: USBPull
    public var service: Service
    /// `[uplink]`, when the car publishes to an MQTT broker; nil: no uplink.
    public var uplink: Uplink? = nil
    /// `[web]`, the family's web app's defaults; nil: the built-in ones (loopback only).
    public var web: Web? = nil
}
