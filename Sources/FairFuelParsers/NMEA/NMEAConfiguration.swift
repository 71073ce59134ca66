/// Receiver-dependent parsing choices; a board profile sets them.
public struct NMEAConfiguration: Sendable, Equatable {
    /// Accept sentences that carry no `*HH` checksum (some receivers omit it).
    ///
    /// When false, such sentences are counted as malformed. Either way they are
    /// counted in `NMEAStats.missingChecksum`.
    public var allowMissingChecksum: Bool

    public init(allowMissingChecksum: Bool = false) {
        self.allowMissingChecksum = allowMissingChecksum
    }
}
