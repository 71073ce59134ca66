#if canImport(Glibc)
import Glibc
#endif

/// An environment variable, without Foundation.
func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}
