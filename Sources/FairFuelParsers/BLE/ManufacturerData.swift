/// A Manufacturer Specific Data AD structure (type 0xFF): a company identifier and its bytes.
public struct ManufacturerData: Sendable, Equatable {
    /// Apple's company identifier, which carries iBeacon frames.
    public static let appleCompanyID: UInt16 = 0x004C

    /// The Bluetooth SIG company identifier (sent least significant byte first).
    public var companyID: UInt16
    /// The bytes after the company identifier; shares the advertisement's storage.
    public var data: ArraySlice<UInt8>

    public init(companyID: UInt16, data: ArraySlice<UInt8>) {
        self.companyID = companyID
        self.data = data
    }

    /// Decodes a structure of type 0xFF; nil for other types or a value shorter than the company id.
    public init?(_ structure: ADStructure) {
        guard structure.type == .manufacturerData, structure.value.count >= 2 else { return nil }
        let value = structure.value
        let start = value.startIndex
        companyID = UInt16(value[start]) | UInt16(value[start + 1]) << 8
        data = value[(start + 2)...]
    }
}
