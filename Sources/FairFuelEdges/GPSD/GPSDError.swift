import CGPS

#if canImport(Glibc)
import Glibc
#endif

/// Why the connection to gpsd could not be made or was lost.
public enum GPSDError: Error, Sendable, Equatable, CustomStringConvertible {
    /// gps_open failed: gpsd is not running or not listening on `host:port`; `reason` is libgps's text.
    case connect(host: String, port: Int, reason: String)
    /// gpsd refused or did not take the `?WATCH` request.
    case watch(host: String, port: Int, errnoCode: Int32)
    /// gpsd closed the connection (it stopped or restarted) or the socket failed.
    case disconnected(host: String, port: Int, errnoCode: Int32)
    /// libgps could not be loaded (dlopen: libgps28 is not installed); `reason` is dlerror's text.
    case libraryMissing(String)

    public var description: String {
        switch self {
        case let .connect(host, port, reason): "cannot connect to gpsd at \(host):\(port): \(reason)"
        case let .watch(host, port, code): "gpsd at \(host):\(port) did not take the watch request: \(String(cString: strerror(code)))"
        case let .disconnected(host, port, code):
            "gpsd at \(host):\(port) closed the connection" + (code == 0 ? "" : ": \(String(cString: strerror(code)))")
        case let .libraryMissing(reason): "libgps cannot be loaded (is libgps28 installed?): \(reason)"
        }
    }
}
