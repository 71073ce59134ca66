import FairFuelCore

/// NFC_TAG (0x30): a tag read (or the read-back after NFC_WRITE).
public struct NFCTagReport: Sendable, Equatable {
    public var mcuTimeMs: UInt32
    public var technology: NFCTechnology
    public var atqa: UInt16
    public var sak: UInt8
    /// 4, 7 or 10 bytes for ISO14443A, 4 for ISO14443B, 8 for FeliCa and ISO15693.
    public var uid: ArraySlice<UInt8>
    /// The tag's NDEF message as read; empty when it has none.
    public var ndef: ArraySlice<UInt8>

    public init(
        mcuTimeMs: UInt32, technology: NFCTechnology, atqa: UInt16, sak: UInt8,
        uid: ArraySlice<UInt8>, ndef: ArraySlice<UInt8>
    ) {
        self.mcuTimeMs = mcuTimeMs
        self.technology = technology
        self.atqa = atqa
        self.sak = sak
        self.uid = uid
        self.ndef = ndef
    }

    static func parse(_ payload: ArraySlice<UInt8>) throws(PayloadError) -> NFCTagReport {
        var reader = PayloadReader(payload, type: .nfcTag)
        try reader.requireLength(9, 250)
        let time = reader.u32()
        let technology: NFCTechnology = try reader.enumValue(reader.u8(), field: "tech")
        let atqa = reader.u16()
        let sak = reader.u8()
        let uidLength = Int(reader.u8())
        guard technology.acceptsUIDLength(uidLength), uidLength <= reader.remaining else {
            throw .outOfRange(type: .nfcTag, field: "uid_len", value: uidLength)
        }
        let uid = reader.bytes(uidLength)
        return NFCTagReport(
            mcuTimeMs: time, technology: technology, atqa: atqa, sak: sak, uid: uid,
            ndef: reader.rest())
    }

    func write(to writer: inout PayloadWriter) {
        writer.u32(mcuTimeMs)
        writer.u8(technology.rawValue)
        writer.u16(atqa)
        writer.u8(sak)
        writer.u8(UInt8(truncatingIfNeeded: uid.count))
        writer.append(uid)
        writer.append(ndef)
    }
}
