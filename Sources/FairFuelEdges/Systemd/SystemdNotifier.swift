#if canImport(Glibc)
import Glibc
#endif

/// Tells systemd about the service's state over `NOTIFY_SOCKET` (the sd_notify protocol, without libsystemd).
///
/// Every call is a no-op when `NOTIFY_SOCKET` was unset (the service run by
/// hand or in a test). Messages are newline-separated `KEY=value` datagrams:
/// `READY=1` once the service is up (a `Type=notify` unit is "started" only
/// then), `WATCHDOG=1` at `watchdogPingIntervalMs`, `STATUS=` for
/// `systemctl status`, `RELOADING=1` then `READY=1` around a SIGHUP reload,
/// `STOPPING=1` on the way out. One datagram socket is opened at the first
/// message and kept.
public final class SystemdNotifier {
    /// `NOTIFY_SOCKET` as given: an absolute path, or `@name` for an abstract socket; nil turns notifications off.
    public let address: String?
    /// The watchdog timeout systemd set for this process (`WATCHDOG_USEC`), in microseconds; nil without a watchdog.
    public let watchdogTimeoutMicroseconds: UInt64?
    private var descriptor: Int32 = -1
    private var socketAddress = sockaddr_un()
    /// nil when `address` is unusable (reported by the first `send`).
    private let socketAddressLength: socklen_t?

    /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` from `environment`; `processID` is this process's id.
    public init(environment: [String: String], processID: Int32 = getpid()) {
        let address = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        self.address = address
        var socketAddress = sockaddr_un()
        socketAddressLength = address.flatMap { SystemdNotifier.fill(&socketAddress, with: $0) }
        self.socketAddress = socketAddress
        watchdogTimeoutMicroseconds = SystemdNotifier.watchdogTimeout(
            microseconds: environment["WATCHDOG_USEC"], forProcess: environment["WATCHDOG_PID"], processID: processID)
    }

    /// A notifier configured from this process's environment.
    public static func fromProcessEnvironment() -> SystemdNotifier {
        var environment: [String: String] = [:]
        for name in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return SystemdNotifier(environment: environment)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Whether notifications go anywhere.
    public var isEnabled: Bool { address != nil }

    /// How often to send `WATCHDOG=1`: half the timeout, as sd_watchdog_enabled(3) advises; nil without a watchdog.
    public var watchdogPingIntervalMs: Int64? {
        guard let watchdogTimeoutMicroseconds else { return nil }
        return max(1, Int64(watchdogTimeoutMicroseconds / 2_000))
    }

    /// The watchdog timeout when `microseconds` is a positive decimal and `WATCHDOG_PID`, if set, is `processID`.
    public static func watchdogTimeout(microseconds: String?, forProcess pid: String?, processID: Int32) -> UInt64? {
        guard let microseconds, let value = UInt64(microseconds), value > 0 else { return nil }
        if let pid, !pid.isEmpty {
            guard let owner = Int32(pid), owner == processID else { return nil }
        }
        return value
    }

    /// `READY=1`, with a status line when given.
    public func ready(status: String? = nil) throws(SystemdNotifyError) {
        try send(status.map { "READY=1\nSTATUS=\(SystemdNotifier.oneLine($0))" } ?? "READY=1")
    }

    /// `STATUS=...`, shown by `systemctl status`; newlines become spaces.
    public func status(_ text: String) throws(SystemdNotifyError) {
        try send("STATUS=\(SystemdNotifier.oneLine(text))")
    }

    /// `WATCHDOG=1`: the service loop is alive.
    public func watchdog() throws(SystemdNotifyError) {
        try send("WATCHDOG=1")
    }

    /// `RELOADING=1` with `MONOTONIC_USEC` (which `Type=notify-reload` requires); send `ready()` when the reload is done.
    public func reloading(monotonicMicroseconds: UInt64 = SystemdNotifier.monotonicMicroseconds()) throws(SystemdNotifyError) {
        try send("RELOADING=1\nMONOTONIC_USEC=\(monotonicMicroseconds)")
    }

    /// `STOPPING=1`: shutdown has begun.
    public func stopping() throws(SystemdNotifyError) {
        try send("STOPPING=1")
    }

    /// `EXTEND_TIMEOUT_USEC=...`: asks for more time to start or stop (a slow SD card migrating the store).
    public func extendTimeout(microseconds: UInt64) throws(SystemdNotifyError) {
        try send("EXTEND_TIMEOUT_USEC=\(microseconds)")
    }

    /// Sends `state` (newline-separated `KEY=value` assignments) as one datagram; nothing when disabled.
    public func send(_ state: String) throws(SystemdNotifyError) {
        guard let address else { return }
        guard let length = socketAddressLength else { throw .unsupportedAddress(address) }
        if descriptor < 0 {
            descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { throw .system(address: address, operation: "create a socket for", errnoCode: errno) }
        }
        var state = state
        let sent = state.withUTF8 { bytes in
            withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), $0, length)
                }
            }
        }
        guard sent >= 0 else { throw .system(address: address, operation: "send to", errnoCode: errno) }
    }

    /// The current CLOCK_MONOTONIC time in microseconds, the clock `MONOTONIC_USEC` is read against.
    public static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
    }

    /// Fills `socketAddress` for an absolute path or an `@` abstract name; returns the address length, nil if unusable.
    static func fill(_ socketAddress: inout sockaddr_un, with address: String) -> socklen_t? {
        var bytes = Array(address.utf8)
        let isAbstract = bytes.first == UInt8(ascii: "@")
        guard isAbstract || bytes.first == UInt8(ascii: "/"), bytes.count > 1 else { return nil }
        if isAbstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: socketAddress.sun_path)
        // A path needs room for its terminating NUL; an abstract name is counted by length alone.
        guard bytes.count < capacity || (isAbstract && bytes.count == capacity) else { return nil }
        socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        return socklen_t(pathOffset + bytes.count + (isAbstract ? 0 : 1))
    }

    static func oneLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) else { return text }
        return String(decoding: text.utf8.map { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }
}
