/// A provisioned driver, by the store's row id.
public struct DriverID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: Int64
    public init(_ rawValue: Int64) { self.rawValue = rawValue }
    public static func < (a: DriverID, b: DriverID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "driver \(rawValue)" }
}

/// A driving session, by the store's row id (0 until stored).
public struct SessionID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: Int64
    public init(_ rawValue: Int64) { self.rawValue = rawValue }
    public static func < (a: SessionID, b: SessionID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "session \(rawValue)" }
}

/// An outbox message's id: assigned once, never reused, the same on every resend.
public struct OutboxMessageID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public init(_ rawValue: Int64) { self.rawValue = rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { String(rawValue) }
}
