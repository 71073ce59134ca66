import FairFuelCore

/// One decoded sentence; a plain value owned by the caller, with nothing on the heap.
public enum NMEASentence: Sendable, Equatable {
    case rmc(NMEARMC)
    case gga(NMEAGGA)
    case gns(NMEAGNS)
    case vtg(NMEAVTG)
    case gll(NMEAGLL)
    case gsa(NMEAGSA)
    case gsv(NMEAGSV)
    case zda(NMEAZDA)

    public var type: NMEASentenceType {
        switch self {
        case .rmc: .rmc
        case .gga: .gga
        case .gns: .gns
        case .vtg: .vtg
        case .gll: .gll
        case .gsa: .gsa
        case .gsv: .gsv
        case .zda: .zda
        }
    }

    public var talker: NMEATalker {
        switch self {
        case .rmc(let s): s.talker
        case .gga(let s): s.talker
        case .gns(let s): s.talker
        case .vtg(let s): s.talker
        case .gll(let s): s.talker
        case .gsa(let s): s.talker
        case .gsv(let s): s.talker
        case .zda(let s): s.talker
        }
    }

    /// The UTC time the sentence carries; nil for VTG, GSA and GSV, or when the field is empty.
    public var time: UTCTimeOfDay? {
        switch self {
        case .rmc(let s): s.time
        case .gga(let s): s.time
        case .gns(let s): s.time
        case .gll(let s): s.time
        case .zda(let s): s.time
        case .vtg, .gsa, .gsv: nil
        }
    }
}
