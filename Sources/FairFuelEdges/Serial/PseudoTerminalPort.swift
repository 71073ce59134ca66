#if canImport(Glibc)
import Glibc
#endif

/// The controller end of a pseudo-terminal for a device simulator (the virtual MCU): non-blocking
/// writes that never wait for a host that is not reading, and one poll(2) for input, room to write
/// and hang-up.
public final class PseudoTerminalPort {
    public let terminal: PseudoTerminal

    public init() throws(SerialPortError) {
        terminal = try PseudoTerminal()
    }

    public var devicePath: String { terminal.devicePath }

    public struct Readiness: Sendable {
        public var readable = false
        public var writable = false
        /// No process has the device side open.
        public var hangUp = false
    }

    /// Waits up to `timeoutMs` for input (and room to write, with `wantWrite`).
    public func wait(timeoutMs: Int32, wantWrite: Bool) -> Readiness {
        var descriptor = pollfd(
            fd: terminal.controllerDescriptor, events: Int16(POLLIN) | (wantWrite ? Int16(POLLOUT) : 0), revents: 0)
        let ready = poll(&descriptor, 1, timeoutMs)
        guard ready > 0 else { return Readiness() }
        return Readiness(
            readable: descriptor.revents & Int16(POLLIN) != 0,
            writable: descriptor.revents & Int16(POLLOUT) != 0,
            hangUp: descriptor.revents & Int16(POLLHUP) != 0)
    }

    /// Writes what the terminal takes now; returns the count (0 when it is full).
    public func writeSome(_ bytes: ArraySlice<UInt8>) -> Int {
        guard !bytes.isEmpty else { return 0 }
        let written = bytes.withUnsafeBytes { write(terminal.controllerDescriptor, $0.baseAddress, $0.count) }
        return max(written, 0)
    }

    /// Reads what the host wrote (empty when nothing is there).
    public func readAvailable(into buffer: inout [UInt8]) -> ArraySlice<UInt8> {
        let count = buffer.withUnsafeMutableBytes { read(terminal.controllerDescriptor, $0.baseAddress, $0.count) }
        return count > 0 ? buffer[0..<count] : []
    }
}
