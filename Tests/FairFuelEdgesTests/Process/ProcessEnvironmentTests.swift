import FairFuelEdges
import Foundation
import Testing

@Suite struct ProcessEnvironmentTests {
    /// Read only (no setenv while other tests run): every variable the process has, as Foundation sees it.
    @Test func everyVariableReadsAsFoundationReadsIt() {
        let environment = ProcessInfo.processInfo.environment
        #expect(!environment.isEmpty)
        for (name, value) in environment {
            #expect(ProcessEnvironment.value(name) == value, "\(name)")
        }
    }

    @Test func anUnsetVariableIsNil() {
        let name = "FAIRFUEL_UNSET_\(UUID().uuidString.replacingOccurrences(of: "-", with: "_"))"
        #expect(ProcessInfo.processInfo.environment[name] == nil)
        #expect(ProcessEnvironment.value(name) == nil)
    }
}
