#if canImport(Glibc)
import Glibc
#endif

/// The process's standard streams as a command-line program uses them: what `print` buffered,
/// pushed out now, and whether a stream is a terminal.
public enum StandardStreams {
    /// Writes out what C stdio holds for standard output (where `print` goes) and every other
    /// open stream (fflush(NULL)): before the process waits, or before another writer's lines.
    public static func flush() throws(FileError) {
        guard fflush(nil) == 0 else { throw FileError(path: "buffered output", operation: "flush", errnoCode: errno) }
    }

    /// Whether `descriptor` (2: standard error) is open on a terminal, where a progress bar may
    /// redraw its line; false for a pipe, a file or a closed descriptor.
    public static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }
}
