import FairFuelCore

/// The identities to look up for one tag read: the driver URI when its NDEF holds one, then the UID.
///
/// Only top-level URI records count; the first that holds a driver URI wins. NDEF that fails
/// to decode is reported in `ndefError` and the UID still identifies the tag.
public struct NFCTagIdentities: Sequence, Equatable, Sendable {
    public let uid: TagUID
    public let driverID: UUID128?
    /// Why the NDEF bytes could not be read; nil when they could (or were empty).
    public let ndefError: NDEFError?

    /// Reads a tag report's UID and NDEF bytes; throws only on a UID length `technology` cannot have.
    public init(technology: NFCTechnology, uid: ArraySlice<UInt8>, ndef: ArraySlice<UInt8>)
        throws(TagUIDError)
    {
        self.uid = try TagUID(bytes: uid, technology: technology)
        var driverID: UUID128? = nil
        var ndefError: NDEFError? = nil
        do {
            for record in try NDEFMessage(ndef) where record.isWellKnown("U") {
                if let uriRecord = try? NDEFURIRecord(payload: record.payload),
                    let driver = DriverURI(uriRecord)
                {
                    driverID = driver.driverID
                    break
                }
            }
        } catch {
            ndefError = error
        }
        self.driverID = driverID
        self.ndefError = ndefError
    }

    public func makeIterator() -> Iterator { Iterator(identities: self) }

    public struct Iterator: IteratorProtocol, Sendable {
        let identities: NFCTagIdentities
        var step = 0

        public mutating func next() -> TagIdentity? {
            defer { step += 1 }
            switch step {
            case 0:
                if let id = identities.driverID { return .driver(id) }
                step += 1
                return .uid(identities.uid)
            case 1:
                return .uid(identities.uid)
            default:
                return nil
            }
        }
    }
}
