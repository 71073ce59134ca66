import FairFuelParsers

/// One driver as provisioned: tag, optional fob and driving style.
public struct ScenarioDriver: Sendable {
    public var person: Person
    public var name: String
    /// A 7-byte NTAG UID.
    public var tagUID: [UInt8]
    /// The tag's NDEF: a driver URI record, or empty.
    public var tagNDEF: [UInt8]
    /// Provisioned by driver URI instead of UID.
    public var driverURI: UUID128?
    public var fob: Fob?
    public var style: DrivingStyle

    public var tagIdentity: TagIdentity {
        if let driverURI { return .driver(driverURI) }
        return .uid(try! TagUID(bytes: tagUID[...]))
    }
}
