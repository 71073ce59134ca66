#if canImport(Glibc)
import Glibc
#endif

/// This process's CPU time and resident memory, as the soak benchmark and `replay --progress` report them.
public struct ProcessUsage: Sendable, Equatable {
    /// User plus system CPU time, microseconds (`getrusage(RUSAGE_SELF)`).
    public var cpuMicroseconds: Int64
    /// Resident set size now (`VmRSS` of `/proc/self/status`), KiB; nil where there is no /proc.
    public var residentKiB: Int?

    /// Samples the process now.
    public static func now() -> ProcessUsage {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let cpu = Int64(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000_000
            + Int64(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
        return ProcessUsage(cpuMicroseconds: cpu, residentKiB: residentKiB())
    }

    /// CPU seconds with millisecond precision, as text (`12.345`).
    public var cpuSecondsText: String {
        let ms = cpuMicroseconds / 1_000
        let fraction = String(ms % 1_000)
        return "\(ms / 1_000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// Reads `VmRSS:   12345 kB` from /proc/self/status into a fixed buffer.
    static func residentKiB() -> Int? {
        let fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4_096) { buffer -> Int? in
            var length = 0
            while length < buffer.count {
                let count = read(fd, buffer.baseAddress! + length, buffer.count - length)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                length += count
            }
            let key = Array("VmRSS:".utf8)
            var index = 0
            while index + key.count <= length {
                if (index == 0 || buffer[index - 1] == UInt8(ascii: "\n"))
                    && (0..<key.count).allSatisfy({ buffer[index + $0] == key[$0] })
                {
                    var cursor = index + key.count
                    while cursor < length && (buffer[cursor] == UInt8(ascii: " ") || buffer[cursor] == UInt8(ascii: "\t")) { cursor += 1 }
                    var value = 0
                    var sawDigit = false
                    while cursor < length, buffer[cursor] >= UInt8(ascii: "0"), buffer[cursor] <= UInt8(ascii: "9") {
                        value = value * 10 + Int(buffer[cursor] - UInt8(ascii: "0"))
                        sawDigit = true
                        cursor += 1
                    }
                    return sawDigit ? value : nil
                }
                index += 1
            }
            return nil
        }
    }
}
