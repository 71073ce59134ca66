/// One AD structure of advertising data: its type and value, a view into the advertisement's bytes.
public struct ADStructure: Sendable, Equatable {
    public var type: ADType
    /// The bytes after the type byte (`length - 1` of them); shares the advertisement's storage.
    public var value: ArraySlice<UInt8>

    public init(type: ADType, value: ArraySlice<UInt8>) {
        self.type = type
        self.value = value
    }
}
