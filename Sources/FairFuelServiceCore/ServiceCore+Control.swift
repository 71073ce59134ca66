import FairFuelCore
import FairFuelDomain
import FairFuelLink
import FairFuelParsers

/// What only the shell knows, for `status`: its store, its recorder and its gpsd connection.
public struct ShellStatus {
    /// The store's size on disk: database, WAL and shared-memory index (the reserve apart).
    public var storeBytes: Int64?
    /// The database file alone (committed pages not yet checkpointed are in the WAL).
    public var storeDatabaseBytes: Int64?
    public var storeWALBytes: Int64?
    /// The disk reserve beside the store (0 while given up for a full disk).
    public var storeReserveBytes: Int64?
    public var sessionsResumed: Int
    public var tripPointsWritten: Int
    public var storeRefusingWrites: Bool
    public var storePendingRecords: Int
    /// What earlier runs and this one could not keep.
    public var storeLost: StoreLossesJSON
    public var storeLostUnsaved: Int
    /// gpsd's connection, with gpsd as the GNSS source.
    public var gpsd: (connected: Bool, fixes: Int)?

    public init(storeBytes: Int64? = nil, sessionsResumed: Int = 0, tripPointsWritten: Int = 0, storeRefusingWrites: Bool = false,
                storePendingRecords: Int = 0, storeLost: StoreLossesJSON = StoreLossesJSON(json: "{}"), storeLostUnsaved: Int = 0,
                gpsd: (connected: Bool, fixes: Int)? = nil, storeDatabaseBytes: Int64? = nil, storeWALBytes: Int64? = nil,
                storeReserveBytes: Int64? = nil) {
        self.storeBytes = storeBytes
        self.storeDatabaseBytes = storeDatabaseBytes
        self.storeWALBytes = storeWALBytes
        self.storeReserveBytes = storeReserveBytes
        self.sessionsResumed = sessionsResumed
        self.tripPointsWritten = tripPointsWritten
        self.storeRefusingWrites = storeRefusingWrites
        self.storePendingRecords = storePendingRecords
        self.storeLost = storeLost
        self.storeLostUnsaved = storeLostUnsaved
        self.gpsd = gpsd
    }
}

/// The store's loss counters as a JSON object (the store formats them; the core only places them).
public struct StoreLossesJSON {
    public var json: String
    public init(json: String) { self.json = json }
}

extension ServiceCore {
    /// Answers one control request line (`status` is answered by `status(shell:at:)`, which
    /// needs the shell's figures: the shell asks for it directly).
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

    /// Link state, firmware, frame counters, GNSS, beacons in range, session and store size.
    public func status(shell: ShellStatus, at now: LinkMilliseconds) -> String {
        let time = linkClock.peek(hostMs: now)
        var json = JSONLine()
        // "silent": the port may be open, the MCU sends nothing (see `checkSilence`).
        json.add("link", silentSince != nil ? "silent" : linkIsUp ? "up" : "down")
        json.add("port", settings.port)
        json.add("opener", linkOpener)
        json.add("reconnects", reconnects)
        json.add("last_frame_age_s", lastFrameAt.map { Double(now.value - $0.value) / 1_000 }, decimals: 1)
        json.add("silent_s", silentSince.map { Double(now.value - $0.value) / 1_000 }, decimals: 1)
        if let firmware = ingest.firmware {
            json.add("firmware", "\(firmware.major).\(firmware.minor).\(firmware.patch)")
            json.add("board_id", firmware.boardID)
        } else {
            json.add("firmware", nil as String?)
        }
        json.add("firmware_warning", firmwareWarning)
        // Revision 1.1: whether the MCU repeats taps and ignition changes until acknowledged.
        json.add("reliable_events", mcuRepeatsEvents)
        json.add("event_acks", eventAcksSent)
        json.addRaw("frames", json: linkCounters.jsonObject)
        let monitor = ingest.monitor
        json.add("gnss_fixes_rejected", monitor.motion.rejectedGateCount + monitor.motion.rejectedOutlierCount)
        json.add("gnss_bad_epochs", monitor.utc.badEpochCount)
        json.add("utc_known", monitor.utc.offsetMs != nil)
        json.add("link_time_ms", time.value)
        json.add("mcu_reboots", linkClock.reboots)
        json.add("gnss_source", settings.gnssSource)
        // A fix counts while it is current, not forever after the first (an MCU gone silent keeps none).
        let fixAgeMs = monitor.motion.lastAccepted.map { max(0, time.value - $0.time.value) }
        json.add("gnss_fix", fixAgeMs.map { $0 <= settings.gnssFixFreshMs } ?? false)
        json.add("gnss_fix_age_s", fixAgeMs.map { Double($0) / 1_000 }, decimals: 1)
        if let gpsd = shell.gpsd {
            json.add("gpsd", gpsd.connected ? "connected" : "down")
            json.add("gpsd_fixes", gpsd.fixes)
            json.add("gpsd_mode", lastSourceFix.map { Int($0.mode.rawValue) })
            json.add("satellites", lastSourceFix?.satellitesUsed)
            json.add("mcu_nmea_ignored", Int(mcuNMEAIgnored))
        }
        json.addRaw("beacons", json: JSONLine.array(Self.fobs(monitor.presence.inRange(at: time)).prefix(16).map { fob in
            // The identity a driver is provisioned with leads; the fob's other identities follow it.
            let lead = fob.first { $0.driver != nil } ?? fob[0]
            var b = JSONLine()
            b.add("beacon", lead.identity.spec)
            b.addRaw("also", json: JSONLine.array(fob.filter { $0.identity != lead.identity }.map { fobIdentity in
                var quoted = ""
                JSONLine.appendQuoted(fobIdentity.identity.spec, to: &quoted)
                return quoted
            }))
            b.add("driver", lead.driver.flatMap { monitor.directory.name(of: $0) })
            b.add("rssi_dbm", lead.smoothedRSSIDBm, decimals: 1)
            b.add("present", fob.contains { $0.inRange })
            b.add("heard_s_ago", Double(max(0, time.value - lead.lastSeen.value)) / 1_000, decimals: 1)
            return b.string
        }))
        json.add("session_state", monitor.machine.state.rawValue)
        json.add("driver", monitor.machine.driver.flatMap { monitor.directory.name(of: $0) })
        if let trip = monitor.currentTrip { json.add("session_km", trip.distance.kilometers, decimals: 3) }
        json.add("fuel_scale", monitor.fuelCalibrationFactor, decimals: 4)
        json.add("untracked_policy", vehicle.untrackedPolicy)
        if let waiting = monitor.continuationCandidate {
            json.add("continuation_driver", monitor.directory.name(of: waiting.driver))
            json.add("continuation_after", waiting.origin.rawValue)
        }
        json.add("sessions_resumed", shell.sessionsResumed)
        json.add("store_bytes", shell.storeBytes)
        json.add("store_database_bytes", shell.storeDatabaseBytes)
        json.add("store_wal_bytes", shell.storeWALBytes)
        json.add("store_reserve_bytes", shell.storeReserveBytes)
        json.add("trip_points_written", shell.tripPointsWritten)
        json.add("store_refusing_writes", shell.storeRefusingWrites)
        json.add("store_pending_records", shell.storePendingRecords)
        json.addRaw("store_lost", json: shell.storeLost.json)
        json.add("store_lost_unsaved", shell.storeLostUnsaved)
        return json.string
    }
}
