/// ACK (0x7F): the MCU's answer to a host command.
public struct Ack: Sendable, Equatable {
    public enum Status: UInt8, Sendable, CaseIterable {
        case ok = 0, unknownType, badPayload, busy, failed, timeout

        public var name: String {
            switch self {
            case .ok: "ok"
            case .unknownType: "unknown_type"
            case .badPayload: "bad_payload"
            case .busy: "busy"
            case .failed: "failed"
            case .timeout: "timeout"
            }
        }
    }

    /// The seq of the host frame being answered.
    public var ackedSeq: UInt16
    public var status: Status

    public init(ackedSeq: UInt16, status: Status) {
        self.ackedSeq = ackedSeq
        self.status = status
    }

    static func parse(_ payload: ArraySlice<UInt8>) throws(PayloadError) -> Ack {
        var reader = PayloadReader(payload, type: .ack)
        try reader.requireLength(3, 3)
        let seq = reader.u16()
        let status: Status = try reader.enumValue(reader.u8(), field: "status")
        return Ack(ackedSeq: seq, status: status)
    }

    func write(to writer: inout PayloadWriter) {
        writer.u16(ackedSeq)
        writer.u8(status.rawValue)
    }
}
