#if canImport(Glibc)
import Glibc
#endif

/// An optional C library (libmosquitto, libgps, libcrypto) loaded with dlopen when a feature
/// first needs it, rather than linked into every process: a library and its dependencies
/// then cost memory only in the processes, and on the boards, that use the feature, and a
/// board without the library still runs everything else.
struct SharedLibrary {
    private let handle: UnsafeMutableRawPointer

    /// Loads the first of `sonames` that loads (RTLD_NOW: a missing symbol of a dependency is
    /// an error here, not a crash later) and lets `bind` look up what it needs.
    /// `missing` turns dlerror's text into the caller's error.
    static func load<Library, Failure: Error>(
        _ sonames: [String], missing: (String) -> Failure, bind: (SharedLibrary) throws(Failure) -> Library
    ) -> Result<Library, Failure> {
        var handle: UnsafeMutableRawPointer?
        for name in sonames where handle == nil {
            handle = dlopen(name, RTLD_NOW | RTLD_LOCAL)
        }
        guard let handle else { return .failure(missing(dlerror().map { String(cString: $0) } ?? "dlopen failed")) }
        do throws(Failure) {
            return .success(try bind(SharedLibrary(handle: handle)))
        } catch {
            return .failure(error)
        }
    }

    /// The function `name` as `T`, or nil when the library has no such symbol.
    func function<T>(_ name: String, _: T.Type) -> T? {
        dlsym(handle, name).map { unsafeBitCast($0, to: T.self) }
    }
}
