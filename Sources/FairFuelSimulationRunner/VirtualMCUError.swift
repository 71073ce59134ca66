import FairFuelEdges
import FairFuelSimulation

/// Why the virtual MCU could not run.
public enum VirtualMCUError: Error, Sendable, Equatable, CustomStringConvertible {
    case scenario(SimScenarioError)
    case port(SerialPortError)
    case link(String)
    case notStarted
    case alreadyRunning
    case invalidSpeed(Double)

    public var description: String {
        switch self {
        case .scenario(let error): error.description
        case .port(let error): error.description
        case .link(let message): message
        case .notStarted: "the virtual MCU was not started (call start() first)"
        case .alreadyRunning: "the virtual MCU is already running"
        case .invalidSpeed(let speed): "speed \(speed) is not a positive factor"
        }
    }
}
