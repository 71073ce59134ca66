/// The sentence table, after gpsd's NMEA driver: each decoded type, the fewest
/// fields (after the address) it accepts, and its parser.
///
/// Minimums stop at the last field the fix needs, so NMEA 2.3/4.1 extras are
/// optional; older layouts that lack needed fields (4-field GLL of NMEA 1.5,
/// VTG without unit letters) are counted as malformed. A VTG cut after the
/// knots (`$GPVTG,,T,,M,0.00,N`, in pynmea2's tests) is accepted.
///
/// Written as two switches over `NMEASentenceType` rather than an array of
/// closures: the compiler checks that every type has a row, and the hot path
/// calls the parser directly (no lazy global, no closure thunk).
enum NMEASentenceTable {
    //   type       minimum  needs fields through      parser
    //   RMC        9        date                      NMEARMC.parse
    //   GGA        9        altitude                  NMEAGGA.parse
    //   GNS        9        altitude                  NMEAGNS.parse
    //   VTG        5        knots                     NMEAVTG.parse
    //   GLL        6        status                    NMEAGLL.parse
    //   GSA        17       VDOP                      NMEAGSA.parse
    //   GSV        3        satellites in view        NMEAGSV.parse
    //   ZDA        4        year                      NMEAZDA.parse

    @inline(__always)
    static func minimumFieldCount(_ type: NMEASentenceType) -> Int {
        switch type {
        case .rmc: 9
        case .gga: 9
        case .gns: 9
        case .vtg: 5
        case .gll: 6
        case .gsa: 17
        case .gsv: 3
        case .zda: 4
        }
    }

    @inline(__always)
    static func parse(
        _ type: NMEASentenceType, _ bytes: Span<UInt8>, _ fields: inout NMEAFieldCursor,
        _ talker: NMEATalker
    ) throws(NMEAError) -> NMEASentence {
        switch type {
        case .rmc: try NMEARMC.parse(bytes, &fields, talker: talker)
        case .gga: try NMEAGGA.parse(bytes, &fields, talker: talker)
        case .gns: try NMEAGNS.parse(bytes, &fields, talker: talker)
        case .vtg: try NMEAVTG.parse(bytes, &fields, talker: talker)
        case .gll: try NMEAGLL.parse(bytes, &fields, talker: talker)
        case .gsa: try NMEAGSA.parse(bytes, &fields, talker: talker)
        case .gsv: try NMEAGSV.parse(bytes, &fields, talker: talker)
        case .zda: try NMEAZDA.parse(bytes, &fields, talker: talker)
        }
    }
}
