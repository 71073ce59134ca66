/// The store's size and contents, for `fairfuel store stats` and the service status.
public struct StoreStatistics: Sendable, Equatable {
    public var databaseBytes: Int64
    public var walBytes: Int64
    public var pageSizeBytes: Int64
    public var pageCount: Int64
    public var freePages: Int64
    public var sessions: Int
    public var openSessions: Int
    /// Closed and open sessions by what their track has been thinned to.
    public var sessionsByTrackLevel: [TrackLevel: Int]
    public var trackChunks: Int
    public var trackPoints: Int
    /// Bytes of the chunk blobs alone.
    public var trackBlobBytes: Int64
    public var events: Int
    public var refuels: Int
    /// Start of the oldest session that still has its full track.
    public var oldestFullTrackUTCMs: Int64?

    /// Database and WAL bytes.
    public var bytesOnDisk: Int64 { databaseBytes + walBytes }
}
