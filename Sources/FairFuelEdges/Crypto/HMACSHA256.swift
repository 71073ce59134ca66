#if canImport(Glibc)
import Glibc
#endif

/// HMAC-SHA256 (RFC 2104) from OpenSSL's libcrypto, loaded on first use.
///
/// Loaded with dlopen rather than linked: linking maps and relocates libcrypto in every
/// `fairfuel` process, which costs the long-running `fairfuel run` 1.4 MB of resident
/// memory for code only `usb-serve` and `pull` call (measured; see docs/usb-pull-protocol.md).
public enum HMACSHA256 {
    public static let length = 32

    public enum LoadError: Error, Sendable, Equatable, CustomStringConvertible {
        case libraryMissing(String)
        public var description: String {
            switch self {
            case let .libraryMissing(detail): "OpenSSL's libcrypto (Debian package libssl3) is needed for the USB pull: \(detail)"
            }
        }
    }

    private typealias SHA256Function = @convention(c) () -> OpaquePointer?
    private typealias HMACFunction = @convention(c) (
        OpaquePointer?, UnsafeRawPointer?, Int32, UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?,
        UnsafeMutablePointer<UInt32>?
    ) -> UnsafeMutablePointer<UInt8>?

    private struct Library: @unchecked Sendable {
        let sha256: SHA256Function
        let hmac: HMACFunction
    }

    private static let library: Result<Library, LoadError> = SharedLibrary.load(
        ["libcrypto.so.3", "libcrypto.so"], missing: LoadError.libraryMissing
    ) { library throws(LoadError) in
        guard let sha = library.function("EVP_sha256", SHA256Function.self), let hmac = library.function("HMAC", HMACFunction.self) else {
            throw .libraryMissing("EVP_sha256 or HMAC not found")
        }
        return Library(sha256: sha, hmac: hmac)
    }

    /// Loads libcrypto now, so that a missing library is a clear error before any talking.
    public static func load() throws(LoadError) {
        if case let .failure(error) = library { throw error }
    }

    /// The 32-byte MAC of `message` under `key`. Call `load()` first; without libcrypto this traps.
    public static func mac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        guard case let .success(lib) = library else { preconditionFailure("HMACSHA256.load() was not checked") }
        var out = [UInt8](repeating: 0, count: length)
        var outLength: UInt32 = 0
        // A zero-length key or message still needs a valid pointer.
        let keyBytes = key.isEmpty ? [0] : key
        let messageBytes = message.isEmpty ? [0] : message
        let result = keyBytes.withUnsafeBytes { k in
            messageBytes.withUnsafeBufferPointer { m in
                out.withUnsafeMutableBufferPointer { o in
                    lib.hmac(lib.sha256(), k.baseAddress, Int32(key.count), m.baseAddress, message.count, o.baseAddress, &outLength)
                }
            }
        }
        precondition(result != nil && outLength == UInt32(length), "libcrypto's HMAC-SHA256 failed")
        return out
    }

    /// Compares two MACs in time that depends only on their length.
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
