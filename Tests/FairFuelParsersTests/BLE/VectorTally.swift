import Testing

/// Checks for one upstream vector that record issues like `#expect` and count them, so that a
/// suite can report "n of m vectors pass".
struct VectorTally {
    private(set) var failureCount = 0

    mutating func equal<T: Equatable>(
        _ actual: T, _ expected: T, _ what: @autoclosure () -> String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard actual != expected else { return }
        failureCount += 1
        Issue.record("\(what()): got \(String(describing: actual)), expected \(String(describing: expected))", sourceLocation: sourceLocation)
    }

    mutating func check(
        _ condition: Bool, _ what: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard !condition else { return }
        failureCount += 1
        Issue.record("\(what())", sourceLocation: sourceLocation)
    }
}
