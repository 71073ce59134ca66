import ArgumentParser
import FairFuelEdges
import FairFuelService
import FairFuelStore

struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version",
        abstract: "Print the versions of fairfuel, its protocol and the C libraries it runs on.")

    func run() {
        print("fairfuel \(FairFuelVersion.string) (link protocol 1)")
        print("libserialport \(SerialPortCatalog.libraryVersion)")
        print("libgps API \(GPSDLibrary.apiVersion) (session structure \(GPSDLibrary.sessionStructureBytes) bytes)")
        print("sqlite \(StoreFiles.libraryVersion)")
    }
}
