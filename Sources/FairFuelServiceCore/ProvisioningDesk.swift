import FairFuelCore
import FairFuelLink
import FairFuelParsers

/// The service's provisioning state: at most one technician task at a time (learning a tag or
/// a beacon, writing a tag, the bootloader), and the MCU's last HELLO for `fairfuel mcu info`.
public struct ProvisioningDesk {
    /// Beacons "held next to the dongle": smoothed RSSI at least this strong (dBm). A fob in the
    /// cabin reads about -50 to -65; one in a hand against the dongle, -40 to -55.
    public static let nearRSSIDBm = -65.0
    /// Two near beacons closer than this (dB of smoothed RSSI) are "equally close": learning refuses.
    /// Fast fading moves an average of a few advertisements by ±3 dB; a fob against the dongle
    /// reads 14 dB or more above one on a seat half a metre away.
    public static let equallyCloseMarginDB = 8.0
    /// Advertisements a beacon needs during the hold before it counts.
    public static let minimumSightings = 3
    /// How long the MCU may take to acknowledge BOOTLOADER (the protocol's 500 ms, with resends).
    public static let bootloaderAckTimeoutMs: Int64 = 3_000

    enum Kind {
        case learnTag
        case learnBeacon(holdMs: Int64)
        /// `seq`: the NFC_WRITE's, as the tracker framed it; `written`: its ACK said ok, the read-back is awaited.
        case writeTag(uri: DriverURI, seq: UInt16, written: Bool)
        case bootloader(seq: UInt16)
    }

    struct Candidate {
        var identity: BeaconIdentity
        var sightings: Int
        /// Since when (host ms) its smoothed RSSI has been near, nil while it is not.
        var nearSinceMs: Int64?
    }

    struct Task {
        var kind: Kind
        var client: ControlRequestID
        var driverID: DriverID?
        var driverName: String
        var startedMs: Int64
        var deadlineMs: Int64
        var candidates: [Candidate] = []
    }

    var task: Task?
    /// The MCU's last HELLO (its name copied out of the decoder's buffer).
    public internal(set) var lastHello: Hello?
    public internal(set) var tasksDone: UInt64 = 0

    public init() {}

    /// A word for errors while another task runs.
    var busyDescription: String? {
        guard let task else { return nil }
        switch task.kind {
        case .learnTag: return "learning a tag for \(task.driverName)"
        case .learnBeacon: return "learning a beacon for \(task.driverName)"
        case .writeTag: return "writing a tag for \(task.driverName)"
        case .bootloader: return "sending the MCU to its bootloader"
        }
    }

    /// Notes one advertisement's preferred identity (its beacon frame, else its stable address).
    mutating func sight(_ identity: BeaconIdentity) {
        guard task != nil else { return }
        if let index = task!.candidates.firstIndex(where: { $0.identity == identity }) {
            task!.candidates[index].sightings += 1
        } else if task!.candidates.count < 32 {
            task!.candidates.append(Candidate(identity: identity, sightings: 1))
        }
    }

    /// What learning a beacon makes of the candidates.
    enum BeaconChoice: Equatable {
        /// Nothing held long enough yet; `strongest` describes the best heard, for the timeout's message.
        case none(strongest: String?)
        case tooClose(BeaconIdentity, BeaconIdentity, Double, Double)
        case chosen(BeaconIdentity, rssiDBm: Double)
    }

    /// One candidate as the choice sees it: smoothed RSSI (dBm, nil when the presence table
    /// lost it) and how long it has been near (ms).
    struct Sighting {
        var identity: BeaconIdentity
        var sightings: Int
        var rssiDBm: Double?
        var nearForMs: Int64
    }

    /// The strongest beacon near for the whole hold is chosen, unless another near one
    /// (held or not) is within the margin of it, or stronger: then they are equally close.
    static func choose(_ candidates: [Sighting], holdMs: Int64) -> BeaconChoice {
        let heard = candidates.filter { $0.rssiDBm != nil }.sorted { $0.rssiDBm! > $1.rssiDBm! }
        let near = heard.filter { $0.rssiDBm! >= nearRSSIDBm }
        guard let first = near.first(where: { $0.sightings >= minimumSightings && $0.nearForMs >= holdMs }) else {
            return .none(strongest: heard.first.map { "\($0.identity.spec) at \(JSONLine.formatFixed($0.rssiDBm!, decimals: 0)) dBm" })
        }
        if let rival = near.first(where: { $0.identity != first.identity && $0.rssiDBm! > first.rssiDBm! - equallyCloseMarginDB }) {
            return .tooClose(first.identity, rival.identity, first.rssiDBm!, rival.rssiDBm!)
        }
        return .chosen(first.identity, rssiDBm: first.rssiDBm!)
    }
}

extension UUID128 {
    /// A random (version 4) UUID from the system's generator.
    static func random() -> UUID128 {
        var generator = SystemRandomNumberGenerator()
        let high = (generator.next() & ~0xF000) | 0x4000
        let low = (generator.next() & ~(0xC000_0000_0000_0000 as UInt64)) | 0x8000_0000_0000_0000
        return UUID128(high: high, low: low)
    }
}
