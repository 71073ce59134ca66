import FairFuelCore

/// RMC: recommended minimum position, speed, course and date.
///
/// The fields are as sent: when `status` is `.void` (or `mode` is `.notValid`)
/// the position, speed and date are the receiver's guesses and `GNSSFixAssembler`
/// ignores them.
public struct NMEARMC: Sendable, Equatable {
    public var talker: NMEATalker
    public var time: UTCTimeOfDay?
    /// `A` or `D` is `.active`; any other letter `.void`.
    public var status: NMEAStatus?
    /// Degrees, north positive.
    @CompactOptional public var latitude: Double? = nil
    /// Degrees, east positive.
    @CompactOptional public var longitude: Double? = nil
    /// Speed over ground (sent in knots).
    @CompactOptional public var speed: MetersPerSecond? = nil
    /// Course over ground, degrees from true north.
    @CompactOptional public var course: Double? = nil
    public var date: UTCDate?
    /// Degrees, east positive.
    @CompactOptional public var magneticVariation: Double? = nil
    /// NMEA 2.3 and later.
    public var mode: NMEAModeIndicator?
    /// NMEA 4.1 and later.
    public var navigationalStatus: NMEANavigationalStatus?

    public init(
        talker: NMEATalker, time: UTCTimeOfDay? = nil, status: NMEAStatus? = nil,
        latitude: Double? = nil, longitude: Double? = nil, speed: MetersPerSecond? = nil,
        course: Double? = nil, date: UTCDate? = nil, magneticVariation: Double? = nil,
        mode: NMEAModeIndicator? = nil, navigationalStatus: NMEANavigationalStatus? = nil
    ) {
        self.talker = talker
        self.time = time
        self.status = status
        self.latitude = latitude
        self.longitude = longitude
        self.speed = speed
        self.course = course
        self.date = date
        self.magneticVariation = magneticVariation
        self.mode = mode
        self.navigationalStatus = navigationalStatus
    }

    /// Whether the receiver vouches for this sentence's position, speed and date.
    public var isValidFix: Bool { status == .active && mode != .notValid }
}

extension NMEARMC {
    // $GPRMC,030719.000,A,3747.0873,S,17518.8938,E,0.69,181.39,311214,,,A*7D
    // Fields 10 to 13 are extras: unparsable ones become nil (Motorola T805 puts
    // the mode letter in field 11).
    //  1 UTC time hhmmss.sss       7 speed over ground, knots
    //  2 status A valid, V warning 8 course over ground, degrees true
    //  3 latitude ddmm.mmmm        9 date ddmmyy
    //  4 N or S                   10 magnetic variation, degrees
    //  5 longitude dddmm.mmmm     11 E or W
    //  6 E or W                   12 mode indicator (NMEA 2.3)
    //                             13 navigational status (NMEA 4.1)
    static func parse(
        _ bytes: Span<UInt8>, _ fields: inout NMEAFieldCursor, talker: NMEATalker
    ) throws(NMEAError) -> NMEASentence {
        var rmc = NMEARMC(talker: talker)
        rmc.time = try fields.time(bytes)
        rmc.status = fields.status(bytes)
        rmc.latitude = try fields.latitude(bytes)
        rmc.longitude = try fields.longitude(bytes)
        rmc.speed = try fields.decimal(bytes).map { MetersPerSecond.knots($0) }
        rmc.course = try fields.decimal(bytes)
        rmc.date = try fields.date(bytes)
        let variation = fields.lenientDecimal(bytes)
        switch fields.lenientCode(bytes, as: NMEAHemisphere.self) {
        case .east: rmc.magneticVariation = variation
        case .west: rmc.magneticVariation = variation.map { -$0 }
        default: break
        }
        rmc.mode = fields.lenientCode(bytes, as: NMEAModeIndicator.self)
        rmc.navigationalStatus = fields.lenientCode(bytes, as: NMEANavigationalStatus.self)
        return .rmc(rmc)
    }
}
