import FairFuelCore
import FairFuelDomain
import FairFuelLink

/// What the service core asks its shell to do. The core never performs I/O: it hands each
/// action to the shell's `perform` closure, in order, while it handles an event.
public enum ServiceAction {
    /// Write these framed bytes to the MCU (a command, its resend, or FEEDBACK).
    case send([UInt8])
    /// Store what the domain reported (the shell's `SessionRecorder` writes it).
    case record(DomainOutput)
    /// Once a second: records the store refused (a full disk) are retried.
    case retryStoreWrites
    /// Once an hour: the store's retention pass, with UTC when GNSS gave it (the age limit needs it).
    case enforceRetention(nowUTCMs: Int64?)
    /// The link's error counts since the last such action (`frames` is 0), at link time `at`,
    /// for the store's event log: at once after a quiet spell, then at most once a minute, and
    /// never when there was no error, so that line noise is a bounded summary, not a row per frame.
    case recordLinkErrors(LinkCounters, at: LinkMilliseconds)
    /// The answer to a control request that was deferred (`ControlAnswer.later`).
    case complete(ControlRequestID, answer: String)
    /// A short line for the service manager's status (systemd `STATUS=`).
    case status(String)
    /// The drivers or the vehicle were reloaded (`ServiceCore.directory`, `.vehicle`): the
    /// shell's recorder names sessions and scales fuel with them from now on.
    case provisioningChanged
    /// The open session's driver changed (by name; nil: no session), for what the shell publishes
    /// beside the store (the uplink's current-driver state).
    case driverChanged(String?)
    /// A session's record went into the store with the messages it queues: the shell's uplink
    /// reads its outbox and publishes the figures again.
    case recordsQueued
    /// Close the MCU's port now: the MCU fell silent (hung, browned out) on a port that never
    /// hangs up. The session carries on; the core asks for the port again through `wantsLink`.
    case reopenLink
}

/// The shell's handler for the core's actions; called synchronously, never stored.
public typealias ServiceActions = (ServiceAction) -> Void

/// A control client's request, as the shell numbers them (a control socket ticket).
public struct ControlRequestID: Hashable, Sendable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
}

/// How the core answers a control request.
public enum ControlAnswer: Equatable, Sendable {
    /// The whole answer, now.
    case now(String)
    /// Later, through `ServiceAction.complete` (learn mode, tag writing, the bootloader).
    case later
}
