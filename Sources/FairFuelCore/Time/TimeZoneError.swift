/// A TZif file or a POSIX TZ rule could not be read; says what is wrong and where.
public struct TimeZoneError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
