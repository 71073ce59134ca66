import Foundation
import Testing
import TestSupport

/// `fairfuel run` and `fairfuel sim` as separate processes on real pseudo-terminals (issue 6's
/// proof). One parent suite, serialized, so that its nested suites never run two service/sim
/// pairs at once on this 2-core machine.
@Suite(.serialized, .tags(.integration)) enum IntegrationTests {
    /// Simulated milliseconds per real millisecond. The service stamps events with the MCU's
    /// own time, so the rules (90 s fob absence, 180 s standing) run at this speed too.
    static let speed = 100.0
    /// While the car is parked with nothing scripted.
    static let idleSpeed = 400.0
    /// Real seconds any one wait may take before the test fails (a hung child is killed in teardown).
    /// Unloaded, a scenario plays in about 9 s; in the full suite, beside 120 other suites on two
    /// cores, one took 64 s.
    static let patience = 180.0

    /// Runs `body` with a fresh rig for `fixture`, always killing every child afterwards.
    static func withRig(_ fixture: String, _ body: (IntegrationRig) throws -> Void) throws {
        let rig = try IntegrationRig(fixture: fixture)
        defer { rig.tearDown() }
        do {
            try body(rig)
        } catch {
            Issue.record("\(error)\n\(rig.diagnostics())")
        }
    }

    /// Parses ISO 8601 UTC (`2026-03-02T07:00:14.549Z`) into milliseconds since 1970.
    static func utcMilliseconds(_ text: String?) -> Int64? {
        guard let text else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = formatter.date(from: text) else { return nil }
        return Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}
