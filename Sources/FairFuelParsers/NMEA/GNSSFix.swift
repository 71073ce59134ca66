import FairFuelCore

/// One epoch's position solution, merged from the sentences that share its UTC time.
///
/// Position, altitude, speed and course are present only when `mode` is 2D or 3D.
public struct GNSSFix: Sendable, Equatable {
    /// nil until a date is known (from RMC with a valid fix, or ZDA).
    public var utc: UTCTimestamp?
    /// The epoch's time of day; nil only for an epoch of sentences that carry no time.
    public var timeOfDay: UTCTimeOfDay?
    /// Degrees, north positive.
    @CompactOptional public var latitude: Double? = nil
    /// Degrees, east positive.
    @CompactOptional public var longitude: Double? = nil
    /// Above mean sea level.
    @CompactOptional public var altitude: Meters? = nil
    @CompactOptional public var speed: MetersPerSecond? = nil
    /// Course over ground, degrees from true north.
    @CompactOptional public var course: Double? = nil
    public var mode: GNSSMode
    /// Satellites used in the solution (GGA/GNS count, else the ids listed by the epoch's GSAs).
    @CompactOptional public var satellitesUsed: Int? = nil
    @CompactOptional public var hdop: Double? = nil
    /// Talker of the sentence the position came from (`GP`, `GN`, `IN`, ...); nil without a position.
    public var talker: NMEATalker?
    /// Whether `speed` and `course` were computed from successive positions
    /// (the epoch had no RMC or VTG speed; see `GNSSMotionDeriver`).
    public var motionIsDerived = false

    /// The constellation of `talker` (nil for instruments and without a position).
    public var constellation: GNSSConstellation? { talker?.constellation }

    public init(
        utc: UTCTimestamp? = nil, timeOfDay: UTCTimeOfDay? = nil, latitude: Double? = nil,
        longitude: Double? = nil, altitude: Meters? = nil, speed: MetersPerSecond? = nil,
        course: Double? = nil, mode: GNSSMode = .noData, satellitesUsed: Int? = nil,
        hdop: Double? = nil, talker: NMEATalker? = nil, motionIsDerived: Bool = false
    ) {
        self.utc = utc
        self.timeOfDay = timeOfDay
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.speed = speed
        self.course = course
        self.mode = mode
        self.satellitesUsed = satellitesUsed
        self.hdop = hdop
        self.talker = talker
        self.motionIsDerived = motionIsDerived
    }
}
