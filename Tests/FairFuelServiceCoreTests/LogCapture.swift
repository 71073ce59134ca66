import FairFuelCore
import Synchronization

/// A logger whose lines are kept in memory, for tests that check what the core says.
final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])
    let minimumLevel: LogLevel

    init(minimumLevel: LogLevel = .info) { self.minimumLevel = minimumLevel }

    var logger: Logger {
        Logger(minimumLevel: minimumLevel, style: .plain, sink: { [self] bytes in
            let line = String(decoding: bytes, as: UTF8.self)
            self.lines.withLock { $0.append(line.hasSuffix("\n") ? String(line.dropLast()) : line) }
        })
    }

    var all: [String] { lines.withLock { $0 } }

    func contains(_ text: String) -> Bool { all.contains { $0.contains(text) } }
}
