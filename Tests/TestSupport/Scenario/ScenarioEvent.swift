import FairFuelCore
import FairFuelDomain
import FairFuelLink
import FairFuelParsers

/// What the MCU reports (or, for `endSession`, what the user does at the service).
public enum ScenarioSignal: Sendable {
    case hello(ignitionSense: Bool)
    case heartbeat(ignitionOn: Bool, supplyMillivolts: UInt16)
    case power(ignitionOn: Bool, supplyMillivolts: UInt16)
    case epoch(ReceiverEpoch)
    case advertisement(Advert)
    case tag(uid: [UInt8], ndef: [UInt8])
    /// The session ended by hand (the control socket, not the MCU).
    case endSession
}

/// A signal at a link time, with the MCU's uptime when it happened.
public struct ScenarioEvent: Sendable {
    /// Link time: milliseconds since the scenario (or the month) began.
    public var timeMs: Int64
    public var mcuUptimeMs: UInt32
    public var signal: ScenarioSignal

    /// The event as the domain receives it, as `LinkIngest` would make it; nil for what it ignores.
    ///
    /// `ignitionSense` says whether the MCU reports ignition (POWER frames reach the domain).
    /// A fix's time is its epoch's (RMC and GGA share a capture line time).
    public func domainEvent(ignitionSense: Bool) -> DomainEvent? {
        let at = LinkMilliseconds(timeMs)
        switch signal {
        case .hello:
            return .mcuRestarted(at: at)
        case .heartbeat:
            return .tick(at: at)
        case let .power(on, _):
            return ignitionSense ? .ignition(on: on, at: at) : nil
        case let .epoch(epoch):
            return .fix(epoch.fix, at: at)
        case let .advertisement(advert):
            let identities = BeaconIdentities(address: advert.address, addressType: advert.addressType, data: advert.data[...])
            return .advertisement(identities, rssiDBm: advert.rssiDBm, at: at)
        case let .tag(uid, ndef):
            guard let read = try? NFCTagIdentities(technology: .iso14443A, uid: uid[...], ndef: ndef[...]) else { return nil }
            return .tagRead(read, at: at)
        case .endSession:
            return .endSession(at: at)
        }
    }
}
