/// Why the demo could not run.
public enum DemoError: Error, CustomStringConvertible {
    case directory(path: String, reason: String)

    public var description: String {
        switch self {
        case let .directory(path, reason): "demo directory \(path): \(reason)"
        }
    }
}
