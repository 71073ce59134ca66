import FairFuelCore

/// The sentences of one receiver epoch merged so far (internal to `GNSSFixAssembler`).
///
/// When two sentences give the same quantity, the higher-ranked one wins
/// whatever the order: position GGA > GNS > RMC > GLL, altitude GGA > GNS,
/// speed and course RMC > VTG, HDOP GGA > GNS > GSA, date ZDA > RMC.
/// Sentences that report no valid fix (RMC/GLL status V or mode N, GGA quality 0,
/// GNS all N, VTG mode N) contribute only their "no fix" verdict.
///
/// Mode: GSA's fix type when the epoch has one, else the best that RMC, GLL
/// (2D), GGA and GNS (3D with an altitude and at least four satellites, else 2D)
/// report. A GSA 2D is raised to 3D when GGA/GNS qualify for 3D. A 2D/3D mode
/// without a position becomes "no fix"; with no fix, position, altitude, speed
/// and course are left out.
struct GNSSEpoch {
    var time: UTCTimeOfDay?
    /// Set once the epoch's fix was handed out.
    var emitted = false
    /// Whether a sentence with fix data (anything but GSV) was merged.
    var hasData = false
    /// `GNSSFixAssembler.Key` of the last sentence merged; 0 before any.
    var lastKey: UInt32 = 0
    /// Sentences merged per type, 8 bits per `NMEASentenceType`.
    private var occurrences: UInt64 = 0

    private(set) var date: UTCDate?
    private var dateRank: UInt8 = 0
    private var latitude: Double?
    private var longitude: Double?
    private var positionRank: UInt8 = 0
    private var positionTalker: NMEATalker?
    private var altitude: Double?
    private var altitudeRank: UInt8 = 0
    private var speed: Double?
    private var speedRank: UInt8 = 0
    private var course: Double?
    private var courseRank: UInt8 = 0
    private var reportedMode: GNSSMode?
    private var derivedMode: GNSSMode = .noData
    private var satellites: Int?
    private var satellitesRank: UInt8 = 0
    private var listedSatellites = 0
    private var sawGSA = false
    private var hdop: Double?
    private var hdopRank: UInt8 = 0

    init(time: UTCTimeOfDay?) {
        self.time = time
    }

    /// Counts one more sentence of `type` and returns how many the epoch has now (saturating at 255).
    mutating func occurrence(of type: NMEASentenceType) -> UInt8 {
        let shift = UInt64(type.rawValue) * 8
        var count = UInt8(truncatingIfNeeded: occurrences >> shift)
        if count < 255 {
            count += 1
            occurrences = occurrences & ~(0xFF << shift) | UInt64(count) << shift
        }
        return count
    }

    /// How many sentences of `type` the epoch has merged.
    func count(of type: NMEASentenceType) -> UInt8 {
        UInt8(truncatingIfNeeded: occurrences >> (UInt64(type.rawValue) * 8))
    }

    mutating func merge(_ sentence: NMEASentence) {
        hasData = true
        switch sentence {
        case .rmc(let rmc):
            guard rmc.isValidFix else {
                if rmc.status != nil || rmc.mode != nil { noteMode(.noFix) }
                return
            }
            notePosition(rmc.latitude, rmc.longitude, rank: 2, mode: .fix2D, talker: rmc.talker)
            GNSSEpoch.set(&speed, &speedRank, rmc.speed?.value, rank: 2)
            GNSSEpoch.set(&course, &courseRank, rmc.course, rank: 2)
            GNSSEpoch.set(&date, &dateRank, rmc.date, rank: 1)
        case .gga(let gga):
            GNSSEpoch.set(&satellites, &satellitesRank, gga.satellitesUsed, rank: 2)
            guard let quality = gga.quality else { return }
            guard quality.isValid else { return noteMode(.noFix) }
            GNSSEpoch.set(&hdop, &hdopRank, gga.hdop, rank: 3)
            GNSSEpoch.set(&altitude, &altitudeRank, gga.altitude?.value, rank: 2)
            notePosition(
                gga.latitude, gga.longitude, rank: 4,
                mode: GNSSEpoch.mode(altitude: gga.altitude, satellites: gga.satellitesUsed), talker: gga.talker)
        case .gns(let gns):
            GNSSEpoch.set(&satellites, &satellitesRank, gns.satellitesUsed, rank: 1)
            guard gns.modes != nil else { return }
            guard gns.isValidFix else { return noteMode(.noFix) }
            GNSSEpoch.set(&hdop, &hdopRank, gns.hdop, rank: 2)
            GNSSEpoch.set(&altitude, &altitudeRank, gns.altitude?.value, rank: 1)
            notePosition(
                gns.latitude, gns.longitude, rank: 3,
                mode: GNSSEpoch.mode(altitude: gns.altitude, satellites: gns.satellitesUsed), talker: gns.talker)
        case .gll(let gll):
            guard gll.isValidFix else {
                if gll.status != nil || gll.mode != nil { noteMode(.noFix) }
                return
            }
            notePosition(gll.latitude, gll.longitude, rank: 1, mode: .fix2D, talker: gll.talker)
        case .vtg(let vtg):
            guard vtg.mode != .notValid else { return }
            GNSSEpoch.set(&speed, &speedRank, vtg.speed?.value, rank: 1)
            GNSSEpoch.set(&course, &courseRank, vtg.courseTrue, rank: 1)
        case .gsa(let gsa):
            sawGSA = true
            listedSatellites += gsa.satellites.listedCount
            if let fixType = gsa.fixType { reportedMode = max(reportedMode ?? .noData, fixType) }
            GNSSEpoch.set(&hdop, &hdopRank, gsa.hdop, rank: 1)
        case .zda(let zda):
            GNSSEpoch.set(&date, &dateRank, zda.date, rank: 2)
        case .gsv:
            break
        }
    }

    /// The merged fix; `date` is the epoch's own date or the one the assembler carries.
    func fix(date carried: UTCDate?) -> GNSSFix {
        var fix = GNSSFix(timeOfDay: time)
        if let time, let day = date ?? carried { fix.utc = UTCTimestamp(date: day, time: time) }
        var mode = derivedMode
        if let reportedMode {
            // GSA's word, except that some firmware (Quectel, Navior) says 2D
            // while GGA shows an altitude from four or more satellites.
            mode = reportedMode == .fix2D && derivedMode == .fix3D ? .fix3D : reportedMode
        }
        if mode >= .fix2D && (latitude == nil || longitude == nil) { mode = .noFix }
        fix.mode = mode
        if mode >= .fix2D {
            fix.latitude = latitude
            fix.longitude = longitude
            fix.altitude = altitude.map { Meters($0) }
            fix.speed = speed.map { MetersPerSecond($0) }
            fix.course = course
            fix.talker = positionTalker
        }
        fix.satellitesUsed = satellites ?? (sawGSA ? listedSatellites : nil)
        fix.hdop = hdop
        return fix
    }

    /// 3D needs an altitude and, when the count is given, at least four satellites.
    private static func mode(altitude: Meters?, satellites: Int?) -> GNSSMode {
        guard altitude != nil else { return .fix2D }
        if let satellites, satellites < 4 { return .fix2D }
        return .fix3D
    }

    private mutating func noteMode(_ mode: GNSSMode) {
        derivedMode = max(derivedMode, mode)
    }

    private mutating func notePosition(
        _ lat: Double?, _ lon: Double?, rank: UInt8, mode: GNSSMode, talker: NMEATalker
    ) {
        guard let lat, let lon else { return noteMode(.noFix) }
        noteMode(mode)
        if rank > positionRank {
            latitude = lat
            longitude = lon
            positionRank = rank
            positionTalker = talker
        }
    }

    private static func set<T>(_ value: inout T?, _ rank: inout UInt8, _ new: T?, rank newRank: UInt8) {
        if let new, newRank > rank {
            value = new
            rank = newRank
        }
    }
}
