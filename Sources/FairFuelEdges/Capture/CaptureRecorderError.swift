/// Why a recording stopped early or could not start.
public enum CaptureRecorderError: Error, Sendable, Equatable, CustomStringConvertible {
    case port(SerialPortError)
    case file(FileError)

    public var description: String {
        switch self {
        case .port(let error): error.description
        case .file(let error): error.description
        }
    }
}
