import FairFuelConfiguration
import FairFuelService
import Testing

/// `fairfueld`'s hand-parsed options: every accepted form, and a clear refusal of the rest.
@Suite struct DaemonCommandLineTests {
    @Test func acceptsEveryOptionInBothForms() {
        let parsed = DaemonCommandLine.parse([
            "--board", "/etc/b.toml", "--port=/dev/ttyACM0", "--control", "/run/c.sock", "--db=/var/lib/x.db", "--verbose",
        ])
        #expect(parsed == .run(ServiceDaemonOptions(
            boardPath: "/etc/b.toml", port: "/dev/ttyACM0", controlSocketPath: "/run/c.sock",
            storePath: "/var/lib/x.db", verbose: true)))
    }

    @Test func noOptionsMeansTheProfileDecides() {
        #expect(DaemonCommandLine.parse([]) == .run(ServiceDaemonOptions()))
    }

    @Test func helpAndVersionWinWherever() {
        #expect(DaemonCommandLine.parse(["--port", "/dev/x", "--help"]) == .help)
        #expect(DaemonCommandLine.parse(["-h"]) == .help)
        #expect(DaemonCommandLine.parse(["--version"]) == .version)
    }

    @Test(arguments: [
        (["--bogus"], "unknown option --bogus"),
        (["-v"], "unknown option -v"),
        (["run"], "unexpected argument run"),
        (["--board"], "--board needs a value"),
        (["--board", "--verbose"], "--board needs a value"),
        (["--db="], "--db needs a non-empty value"),
        (["--port", "/a", "--port", "/b"], "--port given twice"),
        (["--verbose=yes"], "--verbose takes no value"),
    ])
    func refusesWithAMessage(arguments: [String], message: String) {
        #expect(DaemonCommandLine.parse(arguments) == .failure(message))
    }

    @Test func usageStatusIsEXUSAGE() {
        #expect(DaemonCommandLine.usageExitStatus == 64)
    }

    @Test func aMissingBoardFileIsAnErrorNamingIt() {
        let error = #expect(throws: ServiceDaemonError.self) { try ServiceDaemon.loadBoard(path: "/nonexistent/fairfuel.toml") }
        #expect(error?.description.contains("/nonexistent/fairfuel.toml") == true)
    }

    @Test func theInstalledProfileIsThePackagesConffile() {
        #expect(BoardProfile.installedPath == "/etc/fairfuel/fairfuel.toml")
    }
}
