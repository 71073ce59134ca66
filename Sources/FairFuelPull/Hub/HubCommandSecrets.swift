import FairFuelDomain
import FairFuelEdges

/// The cars' pairing secrets a hub signs commands with: a directory holding one file per car,
/// `<vehicle-id>.secret`, as `fairfuel hub command --secret-file` reads one (the hub's web app's `--secrets DIR`).
public struct HubCommandSecrets: Sendable {
    public enum Problem: Error, Sendable, CustomStringConvertible {
        /// No file for that car: nothing can be signed for it.
        case noSecret(vehicle: String, path: String)
        /// The file is there but unreadable or not a secret.
        case unreadable(String)

        public var description: String {
            switch self {
            case let .noSecret(vehicle, path):
                "no pairing secret for car \(vehicle): put it in \(path) (`fairfuel provision pairing-secret --generate` on the car shows it)"
            case let .unreadable(why): why
            }
        }
    }

    public let directory: String

    /// Nil when `directory` is not a directory.
    public init?(directory: String) {
        guard (try? FileOperations.kind(of: directory)) == .directory else { return nil }
        self.directory = directory
    }

    public func secret(for vehicle: String) throws(Problem) -> PairingSecret {
        // A vehicle id is letters and digits: it names a file here and never a path elsewhere.
        let path = directory + "/" + vehicle + HubResendRequests.secretSuffix
        guard FleetCommand.isValidID(vehicle), !vehicle.hasPrefix("."), FileOperations.exists(path) else {
            throw .noSecret(vehicle: vehicle, path: path)
        }
        do { return try PairingSecret.read(file: path) } catch { throw .unreadable("\(error)") }
    }
}
