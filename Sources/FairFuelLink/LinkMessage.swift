/// The typed payload of a delivered frame.
///
/// Byte fields are slices of the decoder's scratch buffer: valid until the
/// next call into the decoder, and copied on write if kept longer.
public enum LinkMessage: Sendable, Equatable {
    case hello(Hello)
    case heartbeat(Heartbeat)
    case nmea(NMEAReport)
    case bleAdvertisement(BLEAdvertisementReport)
    case nfcTag(NFCTagReport)
    case power(PowerReport)
    case log(MCULog)
    case ack(Ack)
    case helloRequest(HelloRequest)
    case eventAck(EventAck)
    case bleFilter(BLEFilter)
    case nfcWrite(NFCWrite)
    case feedback(Feedback)
    case bootloader
    /// A type this receiver does not know, or one the other side should not send.
    case unknown(rawType: UInt8, payload: ArraySlice<UInt8>)

    /// The frame's type byte.
    public var rawType: UInt8 {
        switch self {
        case .hello: FrameType.hello.rawValue
        case .heartbeat: FrameType.heartbeat.rawValue
        case .nmea: FrameType.nmea.rawValue
        case .bleAdvertisement: FrameType.bleAdvertisement.rawValue
        case .nfcTag: FrameType.nfcTag.rawValue
        case .power: FrameType.power.rawValue
        case .log: FrameType.log.rawValue
        case .ack: FrameType.ack.rawValue
        case .helloRequest: FrameType.helloRequest.rawValue
        case .eventAck: FrameType.eventAck.rawValue
        case .bleFilter: FrameType.bleFilter.rawValue
        case .nfcWrite: FrameType.nfcWrite.rawValue
        case .feedback: FrameType.feedback.rawValue
        case .bootloader: FrameType.bootloader.rawValue
        case let .unknown(rawType, _): rawType
        }
    }

    /// The JSON `type` name: the frame type's name, or `unknown`.
    public var jsonName: String {
        if case .unknown = self { return "unknown" }
        return FrameType(rawValue: rawType)!.jsonName
    }

    /// Parses `payload` as a frame of `type`.
    static func parse(type: FrameType, payload: ArraySlice<UInt8>) throws(PayloadError) -> LinkMessage {
        switch type {
        case .hello: .hello(try Hello.parse(payload))
        case .heartbeat: .heartbeat(try Heartbeat.parse(payload))
        case .nmea: .nmea(try NMEAReport.parse(payload))
        case .bleAdvertisement: .bleAdvertisement(try BLEAdvertisementReport.parse(payload))
        case .nfcTag: .nfcTag(try NFCTagReport.parse(payload))
        case .power: .power(try PowerReport.parse(payload))
        case .log: .log(try MCULog.parse(payload))
        case .ack: .ack(try Ack.parse(payload))
        case .helloRequest: .helloRequest(try HelloRequest.parse(payload))
        case .eventAck: .eventAck(try EventAck.parse(payload))
        case .bleFilter: .bleFilter(try BLEFilter.parse(payload))
        case .nfcWrite: .nfcWrite(try NFCWrite.parse(payload))
        case .feedback: .feedback(try Feedback.parse(payload))
        case .bootloader: try { () throws(PayloadError) -> LinkMessage in
                try Bootloader.parse(payload)
                return .bootloader
            }()
        }
    }

    /// Appends this message's payload bytes.
    func writePayload(to writer: inout PayloadWriter) {
        switch self {
        case let .hello(m): m.write(to: &writer)
        case let .heartbeat(m): m.write(to: &writer)
        case let .nmea(m): m.write(to: &writer)
        case let .bleAdvertisement(m): m.write(to: &writer)
        case let .nfcTag(m): m.write(to: &writer)
        case let .power(m): m.write(to: &writer)
        case let .log(m): m.write(to: &writer)
        case let .ack(m): m.write(to: &writer)
        case let .helloRequest(m): m.write(to: &writer)
        case let .eventAck(m): m.write(to: &writer)
        case let .bleFilter(m): m.write(to: &writer)
        case let .nfcWrite(m): m.write(to: &writer)
        case let .feedback(pattern): writer.u8(pattern.rawValue)
        case .bootloader: writer.u32(Bootloader.magic)
        case let .unknown(_, payload): writer.append(payload)
        }
    }
}

/// A delivered frame: its sequence number and typed payload.
public struct Frame: Sendable, Equatable {
    public var seq: UInt16
    public var message: LinkMessage

    public init(seq: UInt16, message: LinkMessage) {
        self.seq = seq
        self.message = message
    }
}
