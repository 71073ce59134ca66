/// One page of records as text lines, ready to stream.
public struct PullPage: Sendable, Equatable {
    /// UTF-8 record lines, each ending in "\n".
    public var text: [UInt8]
    public var records: UInt16
    public var nextCursor: Int64
    public var more: Bool

    public init(text: [UInt8], records: UInt16, nextCursor: Int64, more: Bool) {
        self.text = text
        self.records = records
        self.nextCursor = nextCursor
        self.more = more
    }

    /// The most text bytes a page holds (past the first record), so that a page stays small in RAM.
    public static let byteBudget = 4_096
}

/// What the dongle serves: pages of records read from its store.
public protocol PullDataSource {
    /// The page `request` asks for; errors become an ERROR frame with code `storeError`.
    mutating func page(for request: PullRequest) throws -> PullPage
    /// The pairing secret, read afresh for each try (nil: not provisioned yet).
    mutating func pairingSecret() -> PairingSecret?
}
