/// GSV: satellites in view, up to four per sentence; carries no time.
public struct NMEAGSV: Sendable, Equatable {
    public var talker: NMEATalker
    /// Sentences in this group.
    @CompactOptional public var messageCount: Int? = nil
    /// 1-based position of this sentence in the group.
    @CompactOptional public var messageNumber: Int? = nil
    @CompactOptional public var satellitesInView: Int? = nil
    /// NMEA 4.1 signal id (hex digit).
    public var signalID: UInt8?
    private var slot0: NMEASatelliteInView?
    private var slot1: NMEASatelliteInView?
    private var slot2: NMEASatelliteInView?
    private var slot3: NMEASatelliteInView?
    /// Number of satellites stored (0...4); blocks with an empty id are skipped.
    public private(set) var satelliteCount = 0

    public init(talker: NMEATalker) {
        self.talker = talker
    }

    /// The `index`th satellite with an id, in sentence order.
    public func satellite(_ index: Int) -> NMEASatelliteInView {
        precondition(index >= 0 && index < satelliteCount, "index outside the satellites")
        switch index {
        case 0: return slot0!
        case 1: return slot1!
        case 2: return slot2!
        default: return slot3!
        }
    }

    /// Adds a satellite; at most four fit.
    public mutating func append(_ satellite: NMEASatelliteInView) {
        switch satelliteCount {
        case 0: slot0 = satellite
        case 1: slot1 = satellite
        case 2: slot2 = satellite
        case 3: slot3 = satellite
        default: preconditionFailure("a GSV sentence holds at most four satellites")
        }
        satelliteCount += 1
    }

    /// Whether this is the last sentence of its group.
    public var isLastOfGroup: Bool {
        guard let messageCount, let messageNumber else { return false }
        return messageNumber >= messageCount
    }
}

extension NMEAGSV {
    // $GLGSV,3,1,10,85,85,247,32,69,53,053,37,70,52,187,27,86,36,310,,1*72
    //  1 sentences in the group
    //  2 number of this sentence
    //  3 satellites in view
    //  4...7 satellite id, elevation, azimuth, SNR; repeated up to four times
    //  last: signal id (NMEA 4.1) when the count of fields after 3 leaves one over
    // A block cut short (two or three fields) keeps what it has. Elevation,
    // azimuth and SNR may carry decimals (u-blox: 29.0); they are rounded.
    static func parse(
        _ bytes: Span<UInt8>, _ fields: inout NMEAFieldCursor, talker: NMEATalker
    ) throws(NMEAError) -> NMEASentence {
        var gsv = NMEAGSV(talker: talker)
        gsv.messageCount = try fields.integer(bytes)
        gsv.messageNumber = try fields.integer(bytes)
        gsv.satellitesInView = try fields.integer(bytes)
        let rest = fields.fieldCount - 3
        let hasSignalID = rest % 4 == 1
        var blockFields = hasSignalID ? rest - 1 : rest
        guard blockFields <= 16 else {
            throw .tooManyFields(.gsv, count: fields.fieldCount, maximum: 20)
        }
        while blockFields > 0 {
            let id = try fields.integer(bytes)
            let elevation = blockFields > 1 ? try fields.roundedInteger(bytes, in: -90...90) : nil
            let azimuth = blockFields > 2 ? try fields.roundedInteger(bytes, in: 0...360) : nil
            let snr = blockFields > 3 ? try fields.roundedInteger(bytes, in: 0...255) : nil
            blockFields -= 4
            if let id {
                guard id <= Int(UInt16.max) else { throw .badField(.gsv, field: fields.field - 3) }
                gsv.append(
                    NMEASatelliteInView(
                        id: UInt16(id), elevation: elevation.map { Int8($0) },
                        azimuth: azimuth.map { UInt16($0 % 360) }, snr: snr.map { UInt8($0) }))
            }
        }
        if hasSignalID { gsv.signalID = fields.lenientHexDigit(bytes) }
        return .gsv(gsv)
    }
}
