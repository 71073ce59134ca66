import FairFuelCore

/// GLL: geographic position with time and status.
public struct NMEAGLL: Sendable, Equatable {
    public var talker: NMEATalker
    /// Degrees, north positive.
    @CompactOptional public var latitude: Double? = nil
    /// Degrees, east positive.
    @CompactOptional public var longitude: Double? = nil
    public var time: UTCTimeOfDay?
    /// `A` or `D` is `.active`; any other letter `.void` (Magellan eXplorist sends `N`).
    public var status: NMEAStatus?
    /// NMEA 2.3 and later.
    public var mode: NMEAModeIndicator?

    public init(
        talker: NMEATalker, latitude: Double? = nil, longitude: Double? = nil,
        time: UTCTimeOfDay? = nil, status: NMEAStatus? = nil, mode: NMEAModeIndicator? = nil
    ) {
        self.talker = talker
        self.latitude = latitude
        self.longitude = longitude
        self.time = time
        self.status = status
        self.mode = mode
    }

    /// Whether the receiver vouches for the position.
    public var isValidFix: Bool { status == .active && mode != .notValid }
}

extension NMEAGLL {
    // $GPGLL,5213.1439,N,02100.6511,E,093802,A,D*48
    //  1 latitude ddmm.mmmm       5 UTC time hhmmss.ss
    //  2 N or S                   6 status A valid, V warning
    //  3 longitude dddmm.mmmm     7 mode indicator (NMEA 2.3)
    //  4 E or W
    static func parse(
        _ bytes: Span<UInt8>, _ fields: inout NMEAFieldCursor, talker: NMEATalker
    ) throws(NMEAError) -> NMEASentence {
        var gll = NMEAGLL(talker: talker)
        gll.latitude = try fields.latitude(bytes)
        gll.longitude = try fields.longitude(bytes)
        gll.time = try fields.time(bytes)
        gll.status = fields.status(bytes)
        gll.mode = fields.lenientCode(bytes, as: NMEAModeIndicator.self)
        return .gll(gll)
    }
}
