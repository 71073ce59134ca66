/// A Service Data AD structure (types 0x16, 0x20, 0x21): a service UUID and its bytes.
public struct ServiceData: Sendable, Equatable {
    public var uuid: BLEUUID
    /// The bytes after the UUID; shares the advertisement's storage.
    public var data: ArraySlice<UInt8>

    public init(uuid: BLEUUID, data: ArraySlice<UInt8>) {
        self.uuid = uuid
        self.data = data
    }

    /// Decodes a service data structure; nil for other types or a value shorter than its UUID.
    public init?(_ structure: ADStructure) {
        guard let width = structure.type.serviceDataUUIDWidth, structure.value.count >= width,
            let uuid = BLEUUID(
                littleEndianBytes: structure.value.prefix(width))
        else { return nil }
        self.uuid = uuid
        data = structure.value.dropFirst(width)
    }
}
