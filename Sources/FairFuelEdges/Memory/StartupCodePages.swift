#if canImport(Glibc)
import Glibc
#endif

/// Gives back the executable's code pages that only start-up touched.
///
/// One `fairfuel` binary carries every command (reports, pull, demo), and the kernel
/// maps code in 64 KiB fault-around blocks, so by the time the service's loop starts
/// several MB of the binary's text are resident though the loop needs a fraction of it.
/// Code pages are clean and backed by the file: dropping them (MADV_DONTNEED) is safe,
/// and the loop faults back in, page by page (MADV_RANDOM: no fault-around), what it
/// runs. Only `r-xp` mappings are touched: read-only data may hold relocations the
/// loader wrote, which dropping would undo.
public enum StartupCodePages {
    /// Releases the resident code pages of the running executable; returns the bytes of
    /// code mapped (0 if /proc is unavailable). Best effort: failures change nothing.
    @discardableResult
    public static func release() -> Int {
        guard let executable = executablePath() else { return 0 }
        return release { $0 == executable[...] }
    }

    /// Releases the resident code pages of the shared libraries whose file name starts with one
    /// of `prefixes` (`libcrypto.so`): for libraries whose set-up (a TLS handshake) touches far
    /// more code than their steady state runs. Returns the bytes of code mapped.
    @discardableResult
    public static func release(librariesNamed prefixes: [String]) -> Int {
        release { path in
            let name = path.split(separator: "/").last ?? path
            return prefixes.contains { name.hasPrefix($0) }
        }
    }

    private static func release(where matches: (Substring) -> Bool) -> Int {
        guard let maps = fopen("/proc/self/maps", "r") else { return 0 }
        defer { fclose(maps) }
        var released = 0
        var line = [CChar](repeating: 0, count: 4_096)
        while fgets(&line, Int32(line.count), maps) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let fields = text.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "r-xp", matches(fields[5].trimmingSuffix("\n")) else { continue }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16),
                end > start, let address = UnsafeMutableRawPointer(bitPattern: start)
            else { continue }
            let length = Int(end - start)
            _ = madvise(address, length, MADV_RANDOM)
            if madvise(address, length, MADV_DONTNEED) == 0 { released += length }
        }
        return released
    }

    private static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4_096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension Substring {
    fileprivate func trimmingSuffix(_ suffix: String) -> Substring {
        hasSuffix(suffix) ? dropLast(suffix.count) : self
    }
}
