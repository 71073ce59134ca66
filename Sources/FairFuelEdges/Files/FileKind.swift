/// What a path names, as `FileOperations.kind(of:)` finds it.
public enum FileKind: Sendable, Equatable {
    case regularFile
    case directory
    /// A device, socket, FIFO or anything else that is neither.
    case other
}
