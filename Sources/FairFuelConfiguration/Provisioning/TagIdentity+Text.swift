import FairFuelParsers

extension TagIdentity {
    /// A tag as a technician types it: a UID in hex (any case, `:` separators allowed) or
    /// `fairfuel://driver/<uuid>`; nil with `problem` set when it is neither.
    public init(provisioningText text: String) throws(ProvisioningTextError) {
        if text.lowercased().hasPrefix("fairfuel:") {
            guard let uri = DriverURI(text) else {
                throw ProvisioningTextError("tag '\(text)' is not a driver URI fairfuel://driver/<uuid 8-4-4-4-12>")
            }
            self = .driver(uri.driverID)
            return
        }
        do {
            self = .uid(try TagUID(parsing: text))
        } catch {
            throw ProvisioningTextError("tag '\(text)': \(error)")
        }
    }

    /// The text `init(provisioningText:)` reads back: `04:A2:2B:7A` or `fairfuel://driver/<uuid>`.
    public var provisioningText: String {
        switch self {
        case let .driver(uuid): DriverURI(driverID: uuid).description
        case let .uid(uid): uid.description
        }
    }
}

/// A tag, beacon or bundle field that does not read.
public struct ProvisioningTextError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
