import FairFuelConfiguration
import FairFuelDomain
import FairFuelParsers

extension BoardProfile {
    /// The domain's sizes from this board (thresholds stay the vehicle's defaults).
    public var monitorConfiguration: MonitorConfiguration {
        var configuration = MonitorConfiguration()
        configuration.beaconTableCapacity = ble.beaconsInRangeCapacity
        configuration.rssiWindowSamples = ble.rssiWindowSamples
        configuration.tripPointIntervalMs = Int64(1000 / max(1, store.tripPointKeepHz))
        configuration.continuity.sameTripMaxStopMs = Int64(session.sameTripMaxStopSeconds) * 1000
        configuration.continuity.newTripMaxStopMs = Int64(max(session.newTripMaxStopSeconds, session.sameTripMaxStopSeconds)) * 1000
        configuration.continuity.decisionWindowMs = Int64(session.continuityDecisionSeconds) * 1000
        return configuration
    }

    public var nmeaConfiguration: NMEAConfiguration {
        NMEAConfiguration(allowMissingChecksum: gnss.allowMissingChecksum, maximumPacketBytes: gnss.maxPacketBytes)
    }
}
