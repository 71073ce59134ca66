/// Receiver-dependent parsing choices; a board profile sets them.
public struct NMEAConfiguration: Sendable, Equatable {
    /// Accept sentences that carry no `*HH` checksum (some receivers omit it).
    ///
    /// When false, such sentences are counted as malformed. Either way they are
    /// counted in `NMEAStats.missingChecksum`.
    public var allowMissingChecksum: Bool
    /// The packet lexer's longest packet (its buffer holds two): binary packets longer than this
    /// are skipped as too long. The board profile's `[gnss] max_packet_bytes`.
    public var maximumPacketBytes: Int

    public init(allowMissingChecksum: Bool = false, maximumPacketBytes: Int = GNSSPacketLexer.defaultMaximumPacketBytes) {
        self.allowMissingChecksum = allowMissingChecksum
        self.maximumPacketBytes = maximumPacketBytes
    }
}
