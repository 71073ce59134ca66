import FairFuelCore
import FairFuelLink

/// Something the virtual MCU did or saw, for its log and for tests.
public struct SimEvent: Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Power-on or reset; the HELLO follows after the boot time.
        case reset(reason: String)
        case hello(requested: Bool)
        case tagPresented(label: String, uid: String)
        /// A scripted event that the MCU missed because it was not running.
        case missed(String)
        case ignition(on: Bool)
        /// A host frame the MCU understood: its protocol name and seq.
        case hostCommand(name: String, seq: UInt16)
        case ack(seq: UInt16, status: Ack.Status)
        case duplicate(seq: UInt16)
        case feedback(Feedback)
        case bleFilter(entries: Int)
        case tagWritten(label: String, uid: String, bytes: Int)
        case bootloader
        case unplugged
        /// Plugged back in; the new device path.
        case replugged(path: String)
        case garbage(bytes: Int)
        case noise(LineNoiseSettings)
        case log(String)
        case note(String)
        case end
    }

    /// Simulated milliseconds since the scenario's start.
    public var simMs: Int64
    public var kind: Kind

    public init(simMs: Int64, kind: Kind) {
        self.simMs = simMs
        self.kind = kind
    }

    public var description: String {
        switch kind {
        case .reset(let reason): "MCU reset (\(reason))"
        case .hello(let requested): requested ? "HELLO (asked for)" : "HELLO"
        case .tagPresented(let label, let uid): "tag presented: \(label) \(uid)"
        case .missed(let what): "missed while the MCU was down: \(what)"
        case .ignition(let on): "ignition \(on ? "on" : "off")"
        case .hostCommand(let name, let seq): "host \(name) seq \(seq)"
        case .ack(let seq, let status): "ACK seq \(seq) \(status.name)"
        case .duplicate(let seq): "duplicate host seq \(seq): ACK repeated, command not redone"
        case .feedback(let pattern): "FEEDBACK \(pattern.name)"
        case .bleFilter(let entries): entries == 0 ? "BLE filter cleared (report all)" : "BLE filter: \(entries) entries"
        case .tagWritten(let label, let uid, let bytes): "wrote \(bytes) NDEF bytes to \(label) \(uid)"
        case .bootloader: "into the bootloader"
        case .unplugged: "unplugged"
        case .replugged(let path): "plugged in again: \(path)"
        case .garbage(let bytes): "line noise: \(bytes) garbage bytes"
        case .noise(let settings): "line noise now \(settings.byteErrorRate * 100) % bytes, \(settings.garbageBurstsPerMinute) bursts/min"
        case .log(let text): "LOG \(text)"
        case .note(let text): text
        case .end: "end of scenario"
        }
    }
}
