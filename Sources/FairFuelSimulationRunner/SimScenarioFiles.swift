import FairFuelEdges
import FairFuelSimulation

/// Scenario files and the NMEA logs they name, read through the edges: what `fairfuel sim`,
/// the demo and the virtual MCU on a pseudo-terminal use. The simulation's core reads nothing.
extension SimScenarioParser {
    /// The largest scenario file read: a scenario is a page of text, never megabytes.
    public static let maximumScenarioFileBytes = 4 << 20

    /// Reads and parses a scenario file.
    public static func load(path: String) throws(SimScenarioError) -> SimScenario {
        switch TextFileReader.readAll(path: path, maximumBytes: maximumScenarioFileBytes) {
        case .success(let bytes): return try parse(fileBytes: bytes, path: path)
        case .failure(let error): throw SimScenarioError(sourceName: fileName(path), line: 0, message: error.description)
        }
    }
}

extension SimPlanner {
    /// Plans `scenario`, reading its NMEA logs from the file system.
    public static func plan(_ scenario: SimScenario) throws(SimScenarioError) -> SimPlan {
        try plan(scenario, readFile: SimScenarioFiles.read)
    }
}

public enum SimScenarioFiles {
    /// Reads one file a scenario names, as the planner asks for it.
    public static func read(path: String) -> Result<[UInt8], SimFileReadError> {
        TextFileReader.readAll(path: path).mapError { SimFileReadError($0.description) }
    }
}
