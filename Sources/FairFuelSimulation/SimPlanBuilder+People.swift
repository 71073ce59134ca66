import FairFuelCore
import FairFuelLink
import FairFuelParsers

/// The plan builder's people, events, tags and strangers: who is how far from the car when.
extension PlanBuilder {
    // MARK: people

    func restRange(of person: String, at time: Int64) -> Double? {
        guard let place = carPlace, let range = scenario.place(named: place)?.rangeMeters else { return nil }
        return self.place(of: person, at: time) == place ? range : nil
    }

    func place(of person: String, at time: Int64) -> String? {
        var current: String?
        for change in placeChanges[person] ?? [] where change.time <= time { current = change.place }
        return current
    }

    mutating func changePlace(_ person: String, to place: String?, at time: Int64) {
        placeChanges[person, default: []].append((time, place))
    }

    mutating func append(_ person: String, _ segment: PresenceSegment) {
        guard segment.endMs > segment.startMs else { return }
        segments[person, default: []].append(segment)
    }

    /// Stays where the person is until `time`.
    mutating func hold(_ person: String, until time: Int64) {
        guard var cursor = cursors[person], time > cursor.time else { return }
        append(person, PresenceSegment(startMs: cursor.time, endMs: time, fromMeters: cursor.distance, toMeters: cursor.distance, inside: cursor.inside))
        cursor.time = time
        cursors[person] = cursor
    }

    mutating func move(_ person: String, to distance: Double, inside: Bool, over duration: Int64) {
        guard let cursor = cursors[person] else { return }
        move(person, to: distance, inside: inside, until: cursor.time + duration)
    }

    mutating func move(_ person: String, to distance: Double, inside: Bool, until time: Int64) {
        guard var cursor = cursors[person] else { return }
        let end = max(time, cursor.time)
        append(person, PresenceSegment(startMs: cursor.time, endMs: end, fromMeters: cursor.distance, toMeters: distance, inside: inside && cursor.inside))
        cursor = PersonCursor(time: end, distance: distance, inside: inside)
        cursors[person] = cursor
    }

    mutating func set(_ person: String, distance: Double, inside: Bool) {
        guard var cursor = cursors[person] else { return }
        cursor.distance = distance
        cursor.inside = inside
        cursors[person] = cursor
    }

    mutating func walk(_ person: String, to distance: Double) {
        guard let cursor = cursors[person] else { return }
        let duration = Int64(abs(distance - cursor.distance) / walkingSpeed * 1000)
        move(person, to: distance, inside: false, over: max(duration, 1000))
    }

    mutating func end(_ person: String) { cursors[person] = nil }

    // MARK: events

    mutating func act(_ time: Int64, _ kind: PlannedAction.Kind) {
        actions.append(PlannedAction(timeMs: max(0, time), kind: kind))
    }

    mutating func ignition(_ time: Int64, on: Bool) {
        act(time, .ignition(on))
        ignitionChanges.append((time, on))
    }

    mutating func closeStay(at time: Int64) {
        if stays[stays.count - 1].to == nil { stays[stays.count - 1].to = time }
    }

    func utc(_ time: Int64) -> UTCTimestamp { UTCTimestamp(millisecondsSinceEpoch: scenario.startUTCMilliseconds + time) }

    func localText(_ time: Int64) -> String {
        ISO8601.dateSecond(utcMs: scenario.startUTCMilliseconds + time + Int64(scenario.utcOffsetMinutes) * 60_000)
    }

    // MARK: tags

    mutating func addTag(_ tag: SimTagPlan) -> Int {
        tags.append(tag)
        return tags.count - 1
    }

    mutating func tag(kind: SimTagKind, uid: [UInt8]?, label: String, readOnly: Bool) -> Int {
        if let uid, let existing = tags.firstIndex(where: { $0.uid == uid }) { return existing }
        let bytes = uid ?? PlanBuilder.uid(for: kind, random: &random)
        return addTag(SimTagPlan(label: label, driver: nil, kind: kind, uid: bytes, ndef: [], readOnly: readOnly))
    }

    func driverTagPlan(_ driver: SimDriver) -> SimTagPlan {
        let spec = driver.tag ?? SimTagSpec(kind: .ntag213, uid: nil)
        var nameRandom = SplitMix(seed: scenario.seed ^ PlanBuilder.fnv1a(driver.name))
        let uid = spec.uid ?? PlanBuilder.uid(for: spec.kind, random: &nameRandom)
        return SimTagPlan(
            label: "\(driver.name)'s tag", driver: driver.name, kind: spec.kind, uid: uid, ndef: driver.driverURI?.ndefMessage ?? [],
            readOnly: false)
    }

    /// A plausible UID for the product (NXP's 0x04 first, ISO 15693's E0, a random-UID card's 0x08).
    static func uid(for kind: SimTagKind, random: inout SplitMix) -> [UInt8] {
        var bytes = (0..<kind.uidLength).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        switch kind {
        case .ntag213, .ntag215, .ntag216, .ultralight, .desfire: bytes[0] = 0x04
        case .iso15693:
            bytes[0] = 0xE0
            bytes[1] = 0x04
        case .felica:
            bytes[0] = 0x01
            bytes[1] = 0x2E
        case .bankCard: bytes[0] = 0x08
        case .mifareClassic1K, .mifareClassic4K, .iso14443b:
            if bytes[0] == 0x08 || bytes[0] == 0x88 { bytes[0] = 0x5A }
        }
        return bytes
    }

    /// FNV-1a: a stable hash of text (Swift's own hash is seeded per process).
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01B3
        }
        return hash
    }

    // MARK: strangers

    mutating func addStranger(_ kind: SimStrangerKind, label: String, identity: BeaconIdentity? = nil, segments: [PresenceSegment]) {
        let interval: Int64 =
            switch kind {
            case .phone, .android, .watch: 1000
            case .tag: 2000
            case .ibeacon, .eddystone: 1000
            case .sensor: 3000
            }
        strangers.append(AdvertiserPlan(
            label: label, source: .stranger(kind, identity: identity), intervalMs: interval,
            powerDBm: kind == .tag ? -62 : -59, segments: segments, seed: random.next()))
    }

    mutating func randomStrangerKind() -> SimStrangerKind {
        let roll = random.unit()
        return roll < 0.35 ? .phone : roll < 0.55 ? .android : roll < 0.7 ? .watch : roll < 0.82 ? .tag : roll < 0.92 ? .ibeacon : .eddystone
    }
}
