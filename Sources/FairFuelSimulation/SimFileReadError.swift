/// Why a file a scenario names (an NMEA log) could not be read: the reader's own words. The
/// simulation reads no file itself; whoever plans a scenario hands it a reader.
public struct SimFileReadError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
