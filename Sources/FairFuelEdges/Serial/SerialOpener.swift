import CSerialPort

#if canImport(Glibc)
import Glibc
#endif

/// Opens the MCU's serial port: libserialport for real UARTs and USB CDC ports,
/// plain termios for pseudo-terminals and any port libserialport refuses.
///
/// libserialport 0.1.1 refuses pseudo-terminals (`sp_get_port_by_name` fails on
/// `/dev/pts/N`; `sp_open` fails with ENOTTY on a pty because it asks for the
/// modem-control lines), so the virtual MCU and the USB-pull tests need the
/// termios path; the log says which one was used.
public enum SerialOpener {
    /// Opens `path` at `baud`, 8N1, no flow control; `log` receives one line naming the opener used.
    public static func open(path: String, baud: Int, log: (String) -> Void = { _ in }) throws(SerialPortError) -> SerialConnection {
        do {
            let connection = try openWithLibserialport(path: path, baud: baud)
            log("opened \(path) at \(baud) baud with libserialport")
            return connection
        } catch let refusal {
            let connection = try openWithTermios(path: path, baud: baud)
            log("opened \(path) at \(baud) baud with termios (libserialport refused it: \(refusal))")
            return connection
        }
    }

    /// Opens through libserialport, configured 8N1 without flow control.
    public static func openWithLibserialport(path: String, baud: Int) throws(SerialPortError) -> SerialConnection {
        var port: OpaquePointer?
        let found = sp_get_port_by_name(path, &port)
        guard found == SP_OK, let port else {
            throw .libserialport(path: path, operation: "find", message: describe(found))
        }
        let opened = sp_open(port, SP_MODE_READ_WRITE)
        guard opened == SP_OK else {
            let message = describe(opened)
            sp_free_port(port)
            throw .libserialport(path: path, operation: "open", message: message)
        }
        func fail(_ operation: String, _ code: sp_return) -> SerialPortError {
            let message = describe(code)
            sp_close(port)
            sp_free_port(port)
            return .libserialport(path: path, operation: operation, message: message)
        }
        if case let code = sp_set_baudrate(port, Int32(baud)), code != SP_OK { throw fail("set the baud rate of", code) }
        if case let code = sp_set_bits(port, 8), code != SP_OK { throw fail("set 8 data bits on", code) }
        if case let code = sp_set_parity(port, SP_PARITY_NONE), code != SP_OK { throw fail("set no parity on", code) }
        if case let code = sp_set_stopbits(port, 1), code != SP_OK { throw fail("set 1 stop bit on", code) }
        if case let code = sp_set_flowcontrol(port, SP_FLOWCONTROL_NONE), code != SP_OK { throw fail("turn flow control off on", code) }
        var fd: Int32 = -1
        if case let code = sp_get_port_handle(port, &fd), code != SP_OK || fd < 0 {
            throw fail("get the handle of", code == SP_OK ? SP_ERR_FAIL : code)
        }
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        return SerialConnection(path: path, opener: .libserialport, fileDescriptor: fd, port: port)
    }

    /// Opens with open(2) and termios: raw mode, 8N1, no flow control, non-blocking.
    public static func openWithTermios(path: String, baud: Int) throws(SerialPortError) -> SerialConnection {
        guard let speed = speed(for: baud) else { throw .unsupportedBaudRate(baud) }
        let fd = Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | Int32(O_CLOEXEC))
        guard fd >= 0 else { throw .system(path: path, operation: "open", errnoCode: errno) }
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw .system(path: path, operation: "read the settings of", errnoCode: code)
        }
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CLOCAL) | tcflag_t(CREAD)
        settings.c_cflag &= ~(tcflag_t(CRTSCTS) | tcflag_t(CSTOPB) | tcflag_t(PARENB))
        cfsetispeed(&settings, speed)
        cfsetospeed(&settings, speed)
        guard tcsetattr(fd, TCSANOW, &settings) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw .system(path: path, operation: "configure", errnoCode: code)
        }
        return SerialConnection(path: path, opener: .termios, fileDescriptor: fd, port: nil)
    }

    static func speed(for baud: Int) -> speed_t? {
        switch baud {
        case 9_600: speed_t(B9600)
        case 19_200: speed_t(B19200)
        case 38_400: speed_t(B38400)
        case 57_600: speed_t(B57600)
        case 115_200: speed_t(B115200)
        case 230_400: speed_t(B230400)
        case 460_800: speed_t(B460800)
        case 921_600: speed_t(B921600)
        default: nil
        }
    }

    /// What a libserialport return code means. Only SP_ERR_FAIL has an OS error behind it:
    /// for the others `sp_last_error_message` repeats a stale errno ("Success").
    static func describe(_ code: sp_return) -> String {
        switch code {
        case SP_ERR_ARG: "not a serial port it knows (invalid argument)"
        case SP_ERR_MEM: "out of memory"
        case SP_ERR_SUPP: "operation not supported on this port"
        default: lastError()
        }
    }

    static func lastError() -> String {
        guard let message = sp_last_error_message() else { return "unknown error" }
        defer { sp_free_error_message(message) }
        return String(cString: message)
    }
}
