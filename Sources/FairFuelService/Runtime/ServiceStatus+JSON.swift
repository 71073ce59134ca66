import FairFuelCore
import FairFuelServiceCore

extension ServiceStatus {
    /// The control socket's `status` object: the core's figures and the shell's, keys in a fixed order.
    func json(shell: ShellStatus) -> String {
        var json = JSONLine()
        json.add("link", link.state.rawValue)
        json.add("port", link.port)
        json.add("opener", link.opener)
        json.add("reconnects", link.reconnects)
        json.add("last_frame_age_s", link.lastFrameAgeMs.map(Self.seconds), decimals: 1)
        json.add("silent_s", link.silentMs.map(Self.seconds), decimals: 1)
        if let firmware = link.firmware {
            json.add("firmware", "\(firmware.major).\(firmware.minor).\(firmware.patch)")
            json.add("board_id", firmware.boardID)
        } else {
            json.add("firmware", nil as String?)
        }
        json.add("firmware_warning", link.firmwareWarning)
        json.add("reliable_events", link.reliableEvents)
        json.add("event_acks", link.eventAcks)
        json.addRaw("frames", json: link.frames.jsonObject)
        json.add("gnss_fixes_rejected", gnss.fixesRejected)
        json.add("gnss_bad_epochs", gnss.badEpochs)
        json.add("utc_known", gnss.utcKnown)
        json.add("link_time_ms", link.timeMs)
        json.add("mcu_reboots", link.mcuReboots)
        json.add("gnss_source", gnss.source)
        json.add("gnss_fix", gnss.fix)
        json.add("gnss_fix_age_s", gnss.fixAgeMs.map(Self.seconds), decimals: 1)
        if let gpsd = shell.gpsd {
            json.add("gpsd", gpsd.connected ? "connected" : "down")
            json.add("gpsd_fixes", gpsd.fixes)
            json.add("gpsd_mode", gnss.gpsdMode)
            json.add("satellites", gnss.satellites)
            json.add("mcu_nmea_ignored", gnss.mcuNMEAIgnored)
        }
        json.addRaw("beacons", json: JSONLine.array(beacons.map(Self.json)))
        json.add("session_state", session.state)
        json.add("driver", session.driver)
        if let kilometers = session.kilometers { json.add("session_km", kilometers, decimals: 3) }
        json.add("fuel_scale", session.fuelScale, decimals: 4)
        json.add("untracked_policy", session.untrackedPolicy)
        if let continuation = session.continuation {
            json.add("continuation_driver", continuation.driver)
            json.add("continuation_after", continuation.after)
        }
        json.add("sessions_resumed", shell.sessionsResumed)
        json.add("store_bytes", shell.storeBytes)
        json.add("store_database_bytes", shell.storeDatabaseBytes)
        json.add("store_wal_bytes", shell.storeWALBytes)
        json.add("store_reserve_bytes", shell.storeReserveBytes)
        json.add("trip_points_written", shell.tripPointsWritten)
        json.add("store_refusing_writes", shell.storeRefusingWrites)
        json.add("store_pending_records", shell.storePendingRecords)
        json.addRaw("store_lost", json: shell.storeLost.jsonObject)
        json.add("store_lost_unsaved", shell.storeLostUnsaved)
        json.add("tank_l", shell.tankLiters, decimals: 3)
        json.add("store_note", shell.storeNote)
        if let uplink = shell.uplinkJSON { json.addRaw("uplink", json: uplink) }
        return json.string
    }

    private static func json(_ fob: Fob) -> String {
        var json = JSONLine()
        json.add("beacon", fob.beacon)
        json.addRaw("also", json: JSONLine.array(fob.also.map { spec in
            var quoted = ""
            JSONLine.appendQuoted(spec, to: &quoted)
            return quoted
        }))
        json.add("driver", fob.driver)
        json.add("rssi_dbm", fob.rssiDBm, decimals: 1)
        json.add("present", fob.present)
        json.add("heard_s_ago", seconds(fob.heardAgoMs), decimals: 1)
        return json.string
    }

    private static func seconds(_ milliseconds: Int64) -> Double { Double(milliseconds) / 1_000 }
}
