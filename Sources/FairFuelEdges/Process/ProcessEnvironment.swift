#if canImport(Glibc)
import Glibc
#endif

/// The process's environment variables, without Foundation.
public enum ProcessEnvironment {
    /// The value of `name`; nil when it is not set (an empty value is "").
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
