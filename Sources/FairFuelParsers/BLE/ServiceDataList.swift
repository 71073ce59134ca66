/// The service data structures of an advertisement, in order, read lazily without allocating.
public struct ServiceDataList: Sequence, Sendable {
    public let structures: ADStructures

    public init(_ structures: ADStructures) { self.structures = structures }

    public func makeIterator() -> Iterator { Iterator(base: structures.makeIterator()) }

    public struct Iterator: IteratorProtocol, Sendable {
        var base: ADStructures.Iterator

        public mutating func next() -> ServiceData? {
            while let structure = base.next() {
                if let data = ServiceData(structure) { return data }
            }
            return nil
        }
    }
}
