/// GSA: fix type, satellites used and dilution of precision; carries no time.
///
/// Multi-constellation receivers send one GSA per system in the same epoch
/// (NMEA 4.1 tells them apart with `systemID`).
public struct NMEAGSA: Sendable, Equatable {
    public var talker: NMEATalker
    public var selection: NMEASelectionMode?
    /// `.noFix`, `.fix2D` or `.fix3D`.
    public var fixType: GNSSMode?
    public var satellites: NMEASatelliteIDs
    @CompactOptional public var pdop: Double? = nil
    @CompactOptional public var hdop: Double? = nil
    @CompactOptional public var vdop: Double? = nil
    /// NMEA 4.1: 1 GPS, 2 GLONASS, 3 Galileo, 4 BeiDou, 5 QZSS, 6 NavIC.
    public var systemID: UInt8?

    public init(
        talker: NMEATalker, selection: NMEASelectionMode? = nil, fixType: GNSSMode? = nil,
        satellites: NMEASatelliteIDs = NMEASatelliteIDs(), pdop: Double? = nil,
        hdop: Double? = nil, vdop: Double? = nil, systemID: UInt8? = nil
    ) {
        self.talker = talker
        self.selection = selection
        self.fixType = fixType
        self.satellites = satellites
        self.pdop = pdop
        self.hdop = hdop
        self.vdop = vdop
        self.systemID = systemID
    }
}

extension NMEAGSA {
    // $GNGSA,A,3,68,69,70,78,84,85,,,,,,,1.5,1.3,1.0,2*3D
    //  1 selection M manual, A automatic   15 PDOP
    //  2 fix type 1 none, 2 2D, 3 3D       16 HDOP
    //  3...14 ids of satellites used       17 VDOP
    //                                      18 system id (NMEA 4.1)
    // Some receivers list more than twelve ids (ch-4701 sends 24 slots); then
    // the three DOPs are the last three fields. Exactly 18 fields is the 4.1 layout.
    // Selection, PDOP, VDOP and system id are extras: unparsable ones become nil.
    static func parse(
        _ bytes: Span<UInt8>, _ fields: inout NMEAFieldCursor, talker: NMEATalker
    ) throws(NMEAError) -> NMEASentence {
        var gsa = NMEAGSA(talker: talker)
        gsa.selection = fields.lenientCode(bytes, as: NMEASelectionMode.self)
        if let fixType = try fields.integer(bytes) {
            guard fixType >= 1 && fixType <= 3 else { throw fields.badField }
            gsa.fixType = GNSSMode(rawValue: UInt8(fixType))
        }
        let idFields = fields.fieldCount == 18 ? 12 : fields.fieldCount - 5
        for _ in 0..<idFields {
            if let id = try fields.integer(bytes) {
                guard id <= Int(UInt16.max) else { throw fields.badField }
                gsa.satellites.append(UInt16(id))
            }
        }
        gsa.pdop = fields.lenientDecimal(bytes)
        gsa.hdop = try fields.decimal(bytes)
        gsa.vdop = fields.lenientDecimal(bytes)
        gsa.systemID = fields.lenientHexDigit(bytes)
        return .gsa(gsa)
    }
}
