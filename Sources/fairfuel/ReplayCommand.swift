import ArgumentParser
import FairFuelService

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run a capture through the live path into the store, as fast as possible.",
        discussion: "Deterministic: time comes from the capture. Replaying several captures in order appends.")

    @Argument(help: "The capture file (.ffcap).")
    var capture: String
    @OptionGroup var store: StoreOptions

    func run() throws {
        let db = try store.open()
        let report: ReplayReport
        do {
            report = try Replay(capturePath: capture, store: db).run()
        } catch {
            throw UserFacingError("\(error)")
        }
        print("replayed \(capture): \(report.link.frames) frames over \(report.lastTimeMs / 1000) s, "
            + "\(report.sessionsStarted) session(s) started, \(report.sessionsEnded) ended, \(report.pointsWritten) trip points")
        if report.sessionsEndedAtStartup > 0 {
            print("ended \(report.sessionsEndedAtStartup) session(s) left open by an earlier run (power_loss)")
        }
        if report.link.errorTotal > 0 {
            print("link errors: " + report.link.named.filter { $0.name != "frames" && $0.value > 0 }.map { "\($0.name) \($0.value)" }.joined(separator: ", "))
        }
    }
}
