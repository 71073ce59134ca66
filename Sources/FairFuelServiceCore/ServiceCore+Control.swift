import FairFuelCore
import FairFuelDomain
import FairFuelLink
import FairFuelParsers

extension ServiceCore {
    /// Answers one control request line (`status` is answered by the shell, which adds its own
    /// figures to `status(at:)`).
    public func control(_ request: String, from client: ControlRequestID, at now: LinkMilliseconds, _ perform: ServiceActions) -> ControlAnswer {
        let words = request.split(separator: " ").map(String.init)
        switch words.first ?? "" {
        case "session" where words.count == 2 && words[1] == "end":
            let hadSession = ingest.monitor.machine.driver != nil
            endSession(at: now, perform)
            return .now(hadSession ? "ok: session ended\n" : "ok: no session was open\n")
        case "reload":
            let failures = reloadProvisioning(at: now, perform)
            guard failures.isEmpty else {
                // One line: the control protocol answers a request with one line.
                let reasons = failures.joined(separator: "; ").split(whereSeparator: \.isNewline).joined(separator: " ")
                return .now("error: not reloaded: \(reasons.prefix(400))\n")
            }
            return .now("ok: reloaded\n")
        case "learn-tag", "learn-beacon", "write-tag", "mcu":
            return provisioningAnswer(words, from: client, at: now, perform)
        default:
            return .now("error: unknown request '\(request.prefix(40))' (status, session end, reload)\n")
        }
    }

    /// `fairfuel session end`: the session ends now, whatever the end rule says.
    public func endSession(at now: LinkMilliseconds, _ perform: ServiceActions) {
        ingest.endSession(at: linkClock.extrapolate(hostMs: now)) { output in record(output, at: now, perform) }
    }

    /// The beacons heard, one group per fob: each identity heard in the same advertisement as
    /// another (`heardWith`) goes with that one, strongest fob first (allocates; for status only).
    static func fobs(_ heard: [BeaconPresenceTable.Entry]) -> [[BeaconPresenceTable.Entry]] {
        var leads: [BeaconIdentity] = []
        var groups: [[BeaconPresenceTable.Entry]] = []
        for entry in heard {
            let lead = entry.heardWith.flatMap { with in heard.contains { $0.identity == with } ? with : nil } ?? entry.identity
            if let index = leads.firstIndex(of: lead) {
                if lead == entry.identity { groups[index].insert(entry, at: 0) } else { groups[index].append(entry) }
            } else {
                leads.append(lead)
                groups.append([entry])
            }
        }
        return groups
    }

    /// Link state, firmware, frame counters, GNSS, beacons in range and the session at host time `now`.
    public func status(at now: LinkMilliseconds) -> ServiceStatus {
        let time = linkClock.peek(hostMs: now)
        let monitor = ingest.monitor
        let link = ServiceStatus.Link(
            state: silentSince != nil ? .silent : linkIsUp ? .up : .down, port: settings.port, opener: linkOpener,
            reconnects: reconnects, lastFrameAgeMs: lastFrameAt.map { now.value - $0.value }, silentMs: silentSince.map { now.value - $0.value },
            firmware: ingest.firmware.map { ($0.major, $0.minor, $0.patch, $0.boardID) }, firmwareWarning: firmwareWarning,
            reliableEvents: mcuRepeatsEvents, eventAcks: eventAcksSent, frames: linkCounters, timeMs: time.value, mcuReboots: linkClock.reboots)
        // A fix counts while it is current, not forever after the first (an MCU gone silent keeps none).
        let fixAgeMs = monitor.motion.lastAccepted.map { max(0, time.value - $0.time.value) }
        let gnss = ServiceStatus.GNSS(
            fixesRejected: monitor.motion.rejectedGateCount + monitor.motion.rejectedOutlierCount, badEpochs: monitor.utc.badEpochCount,
            utcKnown: monitor.utc.offsetMs != nil, source: settings.gnssSource, fix: fixAgeMs.map { $0 <= settings.gnssFixFreshMs } ?? false,
            fixAgeMs: fixAgeMs, gpsdMode: lastSourceFix.map { Int($0.mode.rawValue) }, satellites: lastSourceFix?.satellitesUsed,
            mcuNMEAIgnored: Int(mcuNMEAIgnored))
        let beacons = Self.fobs(monitor.presence.inRange(at: time)).prefix(16).map { fob in
            // The identity a driver is provisioned with leads; the fob's other identities follow it.
            let lead = fob.first { $0.driver != nil } ?? fob[0]
            return ServiceStatus.Fob(
                beacon: lead.identity.spec, also: fob.filter { $0.identity != lead.identity }.map(\.identity.spec),
                driver: lead.driver.flatMap { monitor.directory.name(of: $0) }, rssiDBm: lead.smoothedRSSIDBm,
                present: fob.contains { $0.inRange }, heardAgoMs: max(0, time.value - lead.lastSeen.value))
        }
        let session = ServiceStatus.Session(
            state: monitor.machine.state.rawValue, driver: monitor.machine.driver.flatMap { monitor.directory.name(of: $0) },
            kilometers: monitor.currentTrip?.distance.kilometers, fuelScale: monitor.fuelCalibrationFactor,
            untrackedPolicy: vehicle.untrackedPolicy,
            continuation: monitor.continuationCandidate.map { (monitor.directory.name(of: $0.driver), $0.origin.rawValue) })
        return ServiceStatus(link: link, gnss: gnss, beacons: Array(beacons), session: session)
    }
}
