import ArgumentParser
import FairFuelEdges

/// `fairfuel`: the dongle's single executable.
@main
struct FairFuelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fairfuel",
        abstract: "FairFuel: who drove, how far, and who owes what at the pump.",
        subcommands: [
            DemoCommand.self,
            RunCommand.self,
            StatusCommand.self,
            SessionCommand.self,
            SimCommand.self,
            RecordCommand.self,
            DecodeCommand.self,
            NMEACommand.self,
            ReplayCommand.self,
            ProvisionCommand.self,
            VehicleCommand.self,
            MCUCommand.self,
            RefuelCommand.self,
            TripsCommand.self,
            SplitCommand.self,
            SummaryCommand.self,
            ExportCommand.self,
            ReportCommand.self,
            StoreCommand.self,
            SynthCommand.self,
            VersionCommand.self,
            PullCommand.self,
            FamilyCommand.self,
            HubCommand.self,
            FleetSimCommand.self,
            USBServeCommand.self,
            WebCommand.self,
        ])

    /// Files are never world-readable, whatever started the process (systemd sets the same umask);
    /// a command that fails removes a store it created (ArgumentParser's `main`, plus that).
    static func main() {
        FileCreationMask.set(0o027)
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            FreshStore.removeAfterFailure()
            exit(withError: error)
        }
    }
}

/// An error whose message is shown to the user as is, with a non-zero exit.
struct UserFacingError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
