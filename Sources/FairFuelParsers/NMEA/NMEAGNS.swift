import FairFuelCore

/// GNS: the multi-constellation counterpart of GGA, with one mode letter per system.
public struct NMEAGNS: Sendable, Equatable {
    public var talker: NMEATalker
    public var time: UTCTimeOfDay?
    /// Degrees, north positive.
    @CompactOptional public var latitude: Double? = nil
    /// Degrees, east positive.
    @CompactOptional public var longitude: Double? = nil
    /// GPS, GLONASS, Galileo, BeiDou, QZSS, NavIC, in that order.
    public var modes: NMEAModeIndicators?
    @CompactOptional public var satellitesUsed: Int? = nil
    @CompactOptional public var hdop: Double? = nil
    /// Altitude above mean sea level.
    @CompactOptional public var altitude: Meters? = nil
    @CompactOptional public var geoidSeparation: Meters? = nil
    /// Age of the differential corrections, seconds.
    @CompactOptional public var differentialAge: Double? = nil
    @CompactOptional public var differentialStation: Int? = nil
    /// NMEA 4.1 and later.
    public var navigationalStatus: NMEANavigationalStatus?

    public init(talker: NMEATalker) {
        self.talker = talker
    }

    /// Whether any system reports a position.
    public var isValidFix: Bool { modes?.anyValid ?? false }
}

extension NMEAGNS {
    // $GNGNS,120213.000,5957.0062,N,01100.6429,E,NDD,11,1.3,168.9,39.5,,,V*57
    //  1 UTC time hhmmss.ss       7 satellites used
    //  2 latitude ddmm.mmmm       8 HDOP
    //  3 N or S                   9 altitude above mean sea level, metres
    //  4 longitude dddmm.mmmm    10 geoid separation, metres
    //  5 E or W                  11 age of differential data, seconds
    //  6 mode letters, one per   12 differential station id
    //    system (GP GL GA GB ..) 13 navigational status (NMEA 4.1)
    // Fields 10 to 13 are extras: unparsable ones become nil.
    static func parse(
        _ bytes: Span<UInt8>, _ fields: inout NMEAFieldCursor, talker: NMEATalker
    ) throws(NMEAError) -> NMEASentence {
        var gns = NMEAGNS(talker: talker)
        gns.time = try fields.time(bytes)
        gns.latitude = try fields.latitude(bytes)
        gns.longitude = try fields.longitude(bytes)
        gns.modes = try fields.modeIndicators(bytes)
        gns.satellitesUsed = try fields.integer(bytes)
        gns.hdop = try fields.decimal(bytes)
        gns.altitude = try fields.decimal(bytes).map { Meters($0) }
        gns.geoidSeparation = fields.lenientDecimal(bytes).map { Meters($0) }
        gns.differentialAge = fields.lenientDecimal(bytes)
        gns.differentialStation = fields.lenientInteger(bytes)
        gns.navigationalStatus = fields.lenientCode(bytes, as: NMEANavigationalStatus.self)
        return .gns(gns)
    }
}
