import FairFuelCore
import FairFuelServiceCore

/// `ServiceRuntime.runLoop` on capture time: the core gets a capture's reads as the runtime's
/// poll loop hands it the port's, the capture's time standing for the host's clock. Reads of one
/// time are one wake-up; time passes after each wake-up and at every poll timeout the core asks
/// for between them (its one-second tick, resends, the silence limit); the link is opened
/// whenever the core wants it, as the runtime reopens its port.
struct ReplayLoop {
    let core: ServiceCore
    /// The time of the current wake-up.
    private(set) var now: LinkMilliseconds
    /// Bytes went to the core at `now` and time has not passed for them yet.
    private var readAtNow = false

    /// The capture begins at `start` with the port open.
    init(core: ServiceCore, startingAt start: LinkMilliseconds, _ perform: ServiceActions) {
        self.core = core
        now = start
        openIfWanted(perform)
    }

    /// Bytes read at `time`, never before the previous read's.
    mutating func read(_ bytes: ArraySlice<UInt8>, at time: LinkMilliseconds, _ perform: ServiceActions) {
        if time > now {
            if readAtNow { passTime(perform) }
            // Poll's timeouts before the read. At least a millisecond apart: no two wake-ups at one time.
            while true {
                let due = now + max(1, core.millisecondsUntilWork(at: now))
                guard due < time else { break }
                now = due
                passTime(perform)
            }
            now = time
        }
        core.received(bytes, at: now, perform)
        readAtNow = true
    }

    /// The capture ended: time passes for its last reads.
    mutating func finish(_ perform: ServiceActions) {
        if readAtNow { passTime(perform) }
        readAtNow = false
    }

    private mutating func passTime(_ perform: ServiceActions) {
        readAtNow = false
        core.timePassed(at: now, perform)
        openIfWanted(perform)
    }

    private func openIfWanted(_ perform: ServiceActions) {
        guard core.wantsLink(at: now) else { return }
        // No port to reopen: the capture goes on whatever the core decided about its silence.
        core.linkOpened(opener: "capture", message: "capture replayed as the MCU's link", at: now, perform)
    }
}
