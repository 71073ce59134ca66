import FairFuelCore

/// ZDA: UTC time and date with a four-digit year, and the local time zone.
public struct NMEAZDA: Sendable, Equatable {
    public var talker: NMEATalker
    public var time: UTCTimeOfDay?
    /// nil unless day, month and year are all present.
    public var date: UTCDate?
    public var localZoneHours: Int?
    public var localZoneMinutes: Int?

    public init(
        talker: NMEATalker, time: UTCTimeOfDay? = nil, date: UTCDate? = nil,
        localZoneHours: Int? = nil, localZoneMinutes: Int? = nil
    ) {
        self.talker = talker
        self.time = time
        self.date = date
        self.localZoneHours = localZoneHours
        self.localZoneMinutes = localZoneMinutes
    }
}

extension NMEAZDA {
    // $GPZDA,143054.000,18,07,2008,,*55
    //  1 UTC time hhmmss.ss   4 year, four digits
    //  2 day 01...31          5 local zone hours, -13...13
    //  3 month 01...12        6 local zone minutes
    static func parse(
        _ bytes: Span<UInt8>, _ fields: inout NMEAFieldCursor, talker: NMEATalker
    ) throws(NMEAError) -> NMEASentence {
        var zda = NMEAZDA(talker: talker)
        zda.time = try fields.time(bytes)
        let day = try fields.integer(bytes)
        let month = try fields.integer(bytes)
        let year = try fields.integer(bytes)
        if let day, let month, let year {
            guard year >= 1980 && year <= 9999,
                let date = UTCDate(year: year, month: month, day: day)
            else { throw fields.badField }
            zda.date = date
        } else if day != nil || month != nil || year != nil {
            throw fields.badField
        }
        zda.localZoneHours = try? fields.signedInteger(bytes)
        zda.localZoneMinutes = fields.lenientInteger(bytes)
        return .zda(zda)
    }
}
