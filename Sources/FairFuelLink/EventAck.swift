/// EVENT_ACK (0x82, revision 1.1): the host settles a reliable event by the seq of the MCU
/// frame (any copy) that carried it. The MCU does not ACK it, so it bypasses `CommandTracker`.
public struct EventAck: Sendable, Equatable {
    public var ackedSeq: UInt16

    public init(ackedSeq: UInt16) {
        self.ackedSeq = ackedSeq
    }

    static func parse(_ payload: ArraySlice<UInt8>) throws(PayloadError) -> EventAck {
        var reader = PayloadReader(payload, type: .eventAck)
        try reader.requireLength(2, 2)
        return EventAck(ackedSeq: reader.u16())
    }

    func write(to writer: inout PayloadWriter) {
        writer.u16(ackedSeq)
    }
}
