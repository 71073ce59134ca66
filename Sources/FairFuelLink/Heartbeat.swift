/// HEARTBEAT (0x02): sent by the MCU once a second.
public struct Heartbeat: Sendable, Equatable {
    public var uptimeMs: UInt32
    /// Events the MCU itself had to drop (its own queues full).
    public var mcuDropped: UInt16
    public var supplyMillivolts: UInt16
    /// Bit 0: ignition on; other bits reserved and kept as they came.
    public var flags: UInt8

    public init(uptimeMs: UInt32, mcuDropped: UInt16, supplyMillivolts: UInt16, flags: UInt8) {
        self.uptimeMs = uptimeMs
        self.mcuDropped = mcuDropped
        self.supplyMillivolts = supplyMillivolts
        self.flags = flags
    }

    public var ignitionOn: Bool { flags & 1 != 0 }

    static func parse(_ payload: ArraySlice<UInt8>) throws(PayloadError) -> Heartbeat {
        var reader = PayloadReader(payload, type: .heartbeat)
        try reader.requireLength(9, 9)
        return Heartbeat(
            uptimeMs: reader.u32(), mcuDropped: reader.u16(), supplyMillivolts: reader.u16(),
            flags: reader.u8())
    }

    func write(to writer: inout PayloadWriter) {
        writer.u32(uptimeMs)
        writer.u16(mcuDropped)
        writer.u16(supplyMillivolts)
        writer.u8(flags)
    }
}
