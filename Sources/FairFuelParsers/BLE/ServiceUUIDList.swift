/// The service UUIDs of an advertisement's UUID lists (complete and incomplete, 16/32/128-bit).
///
/// Read lazily in order without allocating; a partial UUID at the end of a list is skipped.
public struct ServiceUUIDList: Sequence, Sendable {
    public let structures: ADStructures

    public init(_ structures: ADStructures) { self.structures = structures }

    public func makeIterator() -> Iterator { Iterator(base: structures.makeIterator()) }

    public struct Iterator: IteratorProtocol, Sendable {
        var base: ADStructures.Iterator
        var list: ArraySlice<UInt8> = []
        var width = 0

        public mutating func next() -> BLEUUID? {
            while true {
                if list.count >= width, width > 0 {
                    let uuid = BLEUUID(littleEndianBytes: list.prefix(width))
                    list = list.dropFirst(width)
                    return uuid
                }
                guard let structure = base.next() else { return nil }
                if let listWidth = structure.type.serviceUUIDListWidth {
                    width = listWidth
                    list = structure.value
                } else {
                    width = 0
                }
            }
        }
    }
}
