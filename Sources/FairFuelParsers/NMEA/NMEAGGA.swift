import FairFuelCore

/// GGA: position, fix quality and altitude.
public struct NMEAGGA: Sendable, Equatable {
    public var talker: NMEATalker
    public var time: UTCTimeOfDay?
    /// Degrees, north positive.
    @CompactOptional public var latitude: Double? = nil
    /// Degrees, east positive.
    @CompactOptional public var longitude: Double? = nil
    public var quality: NMEAFixQuality?
    /// Satellites used in the solution (some receivers cap it at 12).
    @CompactOptional public var satellitesUsed: Int? = nil
    @CompactOptional public var hdop: Double? = nil
    /// Altitude above mean sea level (the geoid).
    @CompactOptional public var altitude: Meters? = nil
    /// Height of the geoid above the WGS-84 ellipsoid.
    @CompactOptional public var geoidSeparation: Meters? = nil
    /// Age of the differential corrections, seconds.
    @CompactOptional public var differentialAge: Double? = nil
    @CompactOptional public var differentialStation: Int? = nil

    public init(
        talker: NMEATalker, time: UTCTimeOfDay? = nil, latitude: Double? = nil,
        longitude: Double? = nil, quality: NMEAFixQuality? = nil, satellitesUsed: Int? = nil,
        hdop: Double? = nil, altitude: Meters? = nil, geoidSeparation: Meters? = nil,
        differentialAge: Double? = nil, differentialStation: Int? = nil
    ) {
        self.talker = talker
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.quality = quality
        self.satellitesUsed = satellitesUsed
        self.hdop = hdop
        self.altitude = altitude
        self.geoidSeparation = geoidSeparation
        self.differentialAge = differentialAge
        self.differentialStation = differentialStation
    }
}

extension NMEAGGA {
    // $GPGGA,030719.000,3747.0873,S,17518.8938,E,1,08,1.1,59.9,M,23.7,M,,0000*7D
    //  1 UTC time hhmmss.sss      8 HDOP
    //  2 latitude ddmm.mmmm       9 altitude above mean sea level
    //  3 N or S                  10 M
    //  4 longitude dddmm.mmmm    11 geoid separation
    //  5 E or W                  12 M
    //  6 fix quality 0...8       13 age of differential data, seconds
    //  7 satellites used         14 differential station id
    // Fields 10 to 14 are extras: unparsable ones become nil.
    static func parse(
        _ bytes: Span<UInt8>, _ fields: inout NMEAFieldCursor, talker: NMEATalker
    ) throws(NMEAError) -> NMEASentence {
        var gga = NMEAGGA(talker: talker)
        gga.time = try fields.time(bytes)
        gga.latitude = try fields.latitude(bytes)
        gga.longitude = try fields.longitude(bytes)
        if let quality = try fields.integer(bytes) {
            guard let known = NMEAFixQuality(rawValue: UInt8(clamping: quality)) else {
                throw fields.badField
            }
            gga.quality = known
        }
        gga.satellitesUsed = try fields.integer(bytes)
        gga.hdop = try fields.decimal(bytes)
        gga.altitude = try fields.decimal(bytes).map { Meters($0) }
        fields.skip(bytes)  // M
        gga.geoidSeparation = fields.lenientDecimal(bytes).map { Meters($0) }
        fields.skip(bytes)  // M
        gga.differentialAge = fields.lenientDecimal(bytes)
        gga.differentialStation = fields.lenientInteger(bytes)
        return .gga(gga)
    }
}
