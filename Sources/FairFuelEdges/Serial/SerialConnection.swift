import CSerialPort
import FairFuelCore

#if canImport(Glibc)
import Glibc
#endif

/// An open serial link: a file descriptor read with poll(2), never a busy loop.
///
/// Opened by `SerialOpener` through libserialport (real UARTs, USB CDC) or
/// plain termios (pseudo-terminals and ports libserialport refuses); reading
/// and writing are the same either way.
public final class SerialConnection {
    public enum Opener: String, Sendable {
        case libserialport
        case termios
    }

    public let path: String
    public let opener: Opener
    public let fileDescriptor: Int32
    private let port: OpaquePointer?
    private var isClosed = false

    init(path: String, opener: Opener, fileDescriptor: Int32, port: OpaquePointer?) {
        self.path = path
        self.opener = opener
        self.fileDescriptor = fileDescriptor
        self.port = port
    }

    deinit { close() }

    public func close() {
        guard !isClosed else { return }
        isClosed = true
        if let port {
            sp_close(port)
            sp_free_port(port)
        } else {
            Glibc.close(fileDescriptor)
        }
    }

    public enum ReadResult: Equatable, Sendable {
        /// Bytes were stored in the ring.
        case bytes(Int)
        /// Nothing arrived within the timeout.
        case timedOut
        /// The ring is full: the caller must drain it first (bytes wait in the kernel).
        case ringFull
    }

    /// Waits up to `timeoutMs` for data and reads at most the ring's free space into it.
    public func read(into ring: inout ByteRing, scratch: inout [UInt8], timeoutMs: Int32) throws(SerialPortError) -> ReadResult {
        guard ring.freeCount > 0 else { return .ringFull }
        var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, timeoutMs)
        if ready < 0 {
            if errno == EINTR { return .timedOut }
            throw .system(path: path, operation: "poll", errnoCode: errno)
        }
        if ready == 0 { return .timedOut }
        if descriptor.revents & Int16(POLLIN) == 0 && descriptor.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
            throw .disconnected(path: path)
        }
        let wanted = min(ring.freeCount, scratch.count)
        let count = scratch.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, wanted) }
        if count < 0 {
            if errno == EAGAIN || errno == EINTR { return .timedOut }
            if errno == EIO { throw .disconnected(path: path) }
            throw .system(path: path, operation: "read", errnoCode: errno)
        }
        if count == 0 { throw .disconnected(path: path) }
        ring.write(scratch[0..<count])
        return .bytes(count)
    }

    /// Writes all of `bytes`, waiting for the port to drain when it pushes back.
    public func write(_ bytes: [UInt8], timeoutMs: Int32 = 1_000) throws(SerialPortError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(fileDescriptor, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
                    if poll(&descriptor, 1, timeoutMs) <= 0 {
                        throw .system(path: path, operation: "write (timed out)", errnoCode: EAGAIN)
                    }
                    continue
                }
                if errno == EIO { throw .disconnected(path: path) }
                throw .system(path: path, operation: "write", errnoCode: errno)
            }
            offset += written
        }
    }
}
