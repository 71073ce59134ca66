/// Why a scenario could not be read or planned; names the file and the 1-based line.
public struct SimScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    public var sourceName: String
    /// 0 when the problem is not tied to a line (an unreadable file).
    public var line: Int
    public var message: String

    public init(sourceName: String, line: Int, message: String) {
        self.sourceName = sourceName
        self.line = line
        self.message = message
    }

    public var description: String {
        line > 0 ? "\(sourceName):\(line): \(message)" : "\(sourceName): \(message)"
    }
}
