import CGPS

#if canImport(Glibc)
import Glibc
#endif

/// libgps's functions, loaded with dlopen by the first gpsd client rather than linked.
///
/// Linked, libgps maps libdbus, libsystemd and theirs (libgcrypt, libgpg-error, liblzma,
/// libzstd, liblz4, libcap) into every process: 0.9 MB more resident for a daemon whose
/// GNSS comes from the MCU, as on most boards (measured with scripts/memory.sh). Loaded,
/// they cost only the boards whose `gnss.source` is gpsd. The header module (CGPS) gives
/// the structure and the constants; nothing links against it.
struct LibGPS: @unchecked Sendable {
    typealias Session = UnsafeMutablePointer<gps_data_t>

    let open: @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, Session?) -> Int32
    let close: @convention(c) (Session?) -> Int32
    let read: @convention(c) (Session?, UnsafeMutablePointer<CChar>?, Int32) -> Int32
    let stream: @convention(c) (Session?, UInt32, UnsafeMutableRawPointer?) -> Int32
    let errorText: @convention(c) (Int32) -> UnsafePointer<CChar>?

    /// The library whose `gps_data_t` is the one the headers describe: the soname changes
    /// with every incompatible API (Debian 12's gpsd 3.22, API 11, ships libgps.so.28).
    static var sonames: [String] {
        GPSD_API_MAJOR_VERSION == 11 ? ["libgps.so.28"] : ["libgps.so"]
    }

    /// Loaded once per process (a global is initialised once, thread-safely); the error says
    /// why not (libgps28 not installed).
    static let shared: Result<LibGPS, GPSDError> = SharedLibrary.load(sonames, missing: GPSDError.libraryMissing) {
        library throws(GPSDError) in
        func symbol<T>(_ name: String, _ type: T.Type) throws(GPSDError) -> T {
            guard let function = library.function(name, type) else { throw .libraryMissing("\(name) not found in libgps") }
            return function
        }
        return LibGPS(
            open: try symbol("gps_open", (@convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, Session?) -> Int32).self),
            close: try symbol("gps_close", (@convention(c) (Session?) -> Int32).self),
            read: try symbol("gps_read", (@convention(c) (Session?, UnsafeMutablePointer<CChar>?, Int32) -> Int32).self),
            stream: try symbol("gps_stream", (@convention(c) (Session?, UInt32, UnsafeMutableRawPointer?) -> Int32).self),
            errorText: try symbol("gps_errstr", (@convention(c) (Int32) -> UnsafePointer<CChar>?).self))
    }
}
