import FairFuelCore

extension Frame {
    /// The frame as one JSON object for `fairfuel decode --json`; field names are the spec's and stay stable.
    public func jsonLine(captureTimeMs: UInt64) -> String {
        var json = JSONLine()
        json.add("t_ms", captureTimeMs)
        json.add("seq", seq)
        json.add("type", message.jsonName)
        switch message {
        case let .hello(m):
            json.add("fw_major", m.firmwareMajor)
            json.add("fw_minor", m.firmwareMinor)
            json.add("fw_patch", m.firmwarePatch)
            json.add("board_id", m.boardID)
            json.add("capabilities", m.capabilities.rawValue)
            json.add("uptime_ms", m.uptimeMs)
            json.add("name", m.name)
        case let .heartbeat(m):
            json.add("uptime_ms", m.uptimeMs)
            json.add("mcu_dropped", m.mcuDropped)
            json.add("supply_mv", m.supplyMillivolts)
            json.add("flags", m.flags)
        case let .nmea(m):
            json.add("mcu_t_ms", m.mcuTimeMs)
            json.add("sentence", m.sentenceText)
        case let .bleAdvertisement(m):
            json.add("mcu_t_ms", m.mcuTimeMs)
            json.add("addr", m.address.description)
            json.add("addr_type", m.addressType.rawValue)
            json.add("adv_type", m.advertisingType.rawValue)
            json.add("rssi", m.rssiDBm)
            json.add("data", Hex.string(m.data))
        case let .nfcTag(m):
            json.add("mcu_t_ms", m.mcuTimeMs)
            json.add("tech", m.technology.rawValue)
            json.add("atqa", m.atqa)
            json.add("sak", m.sak)
            json.add("uid", Hex.string(m.uid))
            json.add("ndef", Hex.string(m.ndef))
        case let .power(m):
            json.add("mcu_t_ms", m.mcuTimeMs)
            json.add("ignition", m.ignitionOn ? 1 : 0)
            json.add("supply_mv", m.supplyMillivolts)
        case let .log(m):
            json.add("level", m.level.rawValue)
            json.add("text", m.text)
        case let .ack(m):
            json.add("acked_seq", m.ackedSeq)
            json.add("status", m.status.rawValue)
        case let .helloRequest(m):
            json.add("host_major", m.hostMajor)
            json.add("host_minor", m.hostMinor)
        case let .eventAck(m):
            json.add("acked_seq", m.ackedSeq)
        case let .bleFilter(m):
            json.add("count", m.entries.count)
            json.addRaw("entries", json: JSONLine.array(m.entries.map { entry in
                var e = JSONLine()
                switch entry {
                case let .address(bytes): e.add("kind", 0); e.add("value", Hex.string(bytes))
                case let .iBeaconUUID(bytes): e.add("kind", 1); e.add("value", Hex.string(bytes))
                case let .eddystoneNamespace(bytes): e.add("kind", 2); e.add("value", Hex.string(bytes))
                }
                return e.string
            }))
        case let .nfcWrite(m):
            json.add("timeout_s", m.timeoutSeconds)
            json.add("ndef", Hex.string(m.ndef))
        case let .feedback(pattern):
            json.add("pattern", pattern.rawValue)
        case .bootloader:
            json.add("magic", Bootloader.magic)
        case let .unknown(rawType, payload):
            json.add("raw_type", rawType)
            json.add("payload", Hex.string(payload))
        }
        return json.string
    }

    /// A one-line human summary of the payload, for tables and logs.
    public var summary: String {
        switch message {
        case let .hello(m):
            "\(m.name) fw \(m.firmwareVersion) board 0x\(String(m.boardID, radix: 16)) caps \(m.capabilities.names.joined(separator: ",")) up \(m.uptimeMs) ms"
        case let .heartbeat(m):
            "up \(m.uptimeMs) ms, dropped \(m.mcuDropped), \(m.supplyMillivolts) mV, ignition \(m.ignitionOn ? "on" : "off")"
        case let .nmea(m): m.sentenceText
        case let .bleAdvertisement(m):
            "\(m.address) \(m.addressType.name) \(m.advertisingType.name) \(m.rssiDBm) dBm \(m.data.count) B"
        case let .nfcTag(m):
            "\(m.technology.name) uid \(Hex.string(m.uid)) atqa 0x\(String(m.atqa, radix: 16)) sak 0x\(String(m.sak, radix: 16)) ndef \(m.ndef.count) B"
        case let .power(m): "ignition \(m.ignitionOn ? "on" : "off"), \(m.supplyMillivolts) mV"
        case let .log(m): "[\(m.level.name)] \(m.text)"
        case let .ack(m): "seq \(m.ackedSeq) \(m.status.name)"
        case let .helloRequest(m): "host \(m.hostMajor).\(m.hostMinor)"
        case let .eventAck(m): "event seq \(m.ackedSeq)"
        case let .bleFilter(m): "\(m.entries.count) entries"
        case let .nfcWrite(m): "\(m.ndef.count) B NDEF, \(m.timeoutSeconds) s"
        case let .feedback(pattern): pattern.name
        case .bootloader: "enter bootloader"
        case let .unknown(rawType, payload): "type 0x\(String(rawType, radix: 16)) \(payload.count) B"
        }
    }
}

extension LinkCounters {
    /// `{"frames":N,"cobs_error":N,...}` in the spec's order.
    public var jsonObject: String {
        var json = JSONLine()
        for (name, value) in named { json.add(name, value) }
        return json.string
    }
}
