/// A frame carried in service data of the Eddystone service (0xFEAA).
public enum EddystoneFrame: Sendable, Equatable {
    case uid(EddystoneUID)
    case url(EddystoneURL)
    case tlm(EddystoneTLM)
    /// A frame type this parser does not decode (EID 0x30, encrypted TLM, vendor frames).
    case other(frameType: UInt8)

    /// Decodes `serviceData`; nil when it is not Eddystone's, is empty, or is a malformed
    /// UID, URL or TLM frame.
    public init?(_ serviceData: ServiceData) {
        guard serviceData.uuid == .eddystone, let frameType = serviceData.data.first else { return nil }
        let frame = serviceData.data
        switch frameType {
        case 0x00:
            guard let uid = EddystoneUID(frame: frame) else { return nil }
            self = .uid(uid)
        case 0x10:
            guard let url = EddystoneURL(frame: frame) else { return nil }
            self = .url(url)
        case 0x20:
            if frame.count >= 2, frame[frame.startIndex + 1] != 0x00 {
                self = .other(frameType: frameType)
                return
            }
            guard let tlm = EddystoneTLM(frame: frame) else { return nil }
            self = .tlm(tlm)
        default:
            self = .other(frameType: frameType)
        }
    }
}
