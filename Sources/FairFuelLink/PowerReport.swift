/// POWER (0x40): sent when the ignition changes.
public struct PowerReport: Sendable, Equatable {
    public var mcuTimeMs: UInt32
    public var ignitionOn: Bool
    public var supplyMillivolts: UInt16

    public init(mcuTimeMs: UInt32, ignitionOn: Bool, supplyMillivolts: UInt16) {
        self.mcuTimeMs = mcuTimeMs
        self.ignitionOn = ignitionOn
        self.supplyMillivolts = supplyMillivolts
    }

    static func parse(_ payload: ArraySlice<UInt8>) throws(PayloadError) -> PowerReport {
        var reader = PayloadReader(payload, type: .power)
        try reader.requireLength(7, 7)
        let time = reader.u32()
        let ignition = reader.u8()
        guard ignition <= 1 else {
            throw .outOfRange(type: .power, field: "ignition", value: Int(ignition))
        }
        return PowerReport(mcuTimeMs: time, ignitionOn: ignition == 1, supplyMillivolts: reader.u16())
    }

    func write(to writer: inout PayloadWriter) {
        writer.u32(mcuTimeMs)
        writer.u8(ignitionOn ? 1 : 0)
        writer.u16(supplyMillivolts)
    }
}
