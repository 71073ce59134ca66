import FairFuelSimulation
import Foundation

/// Scenario files for tests that link no edges (the service core's, the domain's): read with
/// Foundation and handed to the simulation's own parser and planner, as the runner hands them
/// what the edges read.
public enum ScenarioFiles {
    /// Reads and parses the scenario at `path`.
    public static func load(path: String) throws -> SimScenario {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SimFileReadError("cannot read the scenario \(path)")
        }
        return try SimScenarioParser.parse(fileBytes: [UInt8](data), path: path)
    }

    /// Plans `scenario`, reading the NMEA logs it names.
    public static func plan(_ scenario: SimScenario) throws -> SimPlan {
        try SimPlanner.plan(scenario) { path in
            guard let data = FileManager.default.contents(atPath: path) else { return .failure(SimFileReadError("cannot read \(path)")) }
            return .success([UInt8](data))
        }
    }

    /// Reads, parses and plans the scenario at `path`.
    public static func plan(path: String) throws -> SimPlan {
        try plan(try load(path: path))
    }
}
