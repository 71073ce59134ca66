import FairFuelCore

/// VTG: course and speed over ground; carries no time.
public struct NMEAVTG: Sendable, Equatable {
    public var talker: NMEATalker
    /// Degrees from true north.
    @CompactOptional public var courseTrue: Double? = nil
    /// Degrees from magnetic north.
    @CompactOptional public var courseMagnetic: Double? = nil
    /// From the knots field, or from the km/h field when knots are empty.
    @CompactOptional public var speed: MetersPerSecond? = nil
    /// NMEA 2.3 and later.
    public var mode: NMEAModeIndicator?

    public init(
        talker: NMEATalker, courseTrue: Double? = nil, courseMagnetic: Double? = nil,
        speed: MetersPerSecond? = nil, mode: NMEAModeIndicator? = nil
    ) {
        self.talker = talker
        self.courseTrue = courseTrue
        self.courseMagnetic = courseMagnetic
        self.speed = speed
        self.mode = mode
    }
}

extension NMEAVTG {
    // $GPVTG,226,T,222,M,000.0,N,0000.0,K,D*12
    //  1 course, degrees true       6 N
    //  2 T                          7 speed, km/h
    //  3 course, degrees magnetic   8 K
    //  4 M                          9 mode indicator (NMEA 2.3)
    //  5 speed, knots
    // Unit letters are not checked; the magnetic course and mode are extras
    // (unparsable ones become nil).
    static func parse(
        _ bytes: Span<UInt8>, _ fields: inout NMEAFieldCursor, talker: NMEATalker
    ) throws(NMEAError) -> NMEASentence {
        var vtg = NMEAVTG(talker: talker)
        vtg.courseTrue = try fields.decimal(bytes)
        fields.skip(bytes)  // T
        vtg.courseMagnetic = fields.lenientDecimal(bytes)
        fields.skip(bytes)  // M
        let knots = try fields.decimal(bytes)
        fields.skip(bytes)  // N
        let kilometersPerHour = try fields.decimal(bytes)
        fields.skip(bytes)  // K
        if let knots {
            vtg.speed = .knots(knots)
        } else if let kilometersPerHour {
            vtg.speed = .kilometersPerHour(kilometersPerHour)
        }
        vtg.mode = fields.lenientCode(bytes, as: NMEAModeIndicator.self)
        return .vtg(vtg)
    }
}
