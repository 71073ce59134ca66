import CPosixShims

#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal pair: the virtual MCU holds the controller side and prints the
/// device path that the service opens like a serial port.
public final class PseudoTerminal {
    /// The controller side (what the virtual MCU reads and writes).
    public let controllerDescriptor: Int32
    /// The device path of the other side, e.g. /dev/pts/3.
    public let devicePath: String

    public init() throws(SerialPortError) {
        var name = [CChar](repeating: 0, count: 128)
        let fd = fairfuel_open_pty(&name, name.count)
        guard fd >= 0 else { throw .system(path: "/dev/ptmx", operation: "open a pseudo-terminal from", errnoCode: errno) }
        devicePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // Raw mode on the device side too, so no byte is translated or echoed.
        var settings = termios()
        let device = open(devicePath, O_RDWR | O_NOCTTY | Int32(O_CLOEXEC))
        if device >= 0 {
            tcgetattr(device, &settings)
            cfmakeraw(&settings)
            tcsetattr(device, TCSANOW, &settings)
            close(device)
        }
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        controllerDescriptor = fd
    }

    deinit { close(controllerDescriptor) }

    /// Writes all bytes to the controller side (to the device's reader).
    public func write(_ bytes: [UInt8]) throws(SerialPortError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(controllerDescriptor, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    var descriptor = pollfd(fd: controllerDescriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&descriptor, 1, 100)
                    continue
                }
                throw .system(path: devicePath, operation: "write", errnoCode: errno)
            }
            offset += written
        }
    }

    /// Reads what the device side wrote, waiting up to `timeoutMs`; empty on timeout.
    public func read(maximum: Int = 4096, timeoutMs: Int32) throws(SerialPortError) -> [UInt8] {
        var descriptor = pollfd(fd: controllerDescriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, timeoutMs) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: maximum)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(controllerDescriptor, $0.baseAddress, maximum) }
        if count < 0 {
            if errno == EAGAIN || errno == EINTR || errno == EIO { return [] }
            throw .system(path: devicePath, operation: "read", errnoCode: errno)
        }
        return Array(buffer[0..<count])
    }
}
