/// HELLO_REQ (0x81): asks the MCU for its HELLO and tells it the host's version.
public struct HelloRequest: Sendable, Equatable {
    public var hostMajor: UInt8
    public var hostMinor: UInt8

    public init(hostMajor: UInt8, hostMinor: UInt8) {
        self.hostMajor = hostMajor
        self.hostMinor = hostMinor
    }

    static func parse(_ payload: ArraySlice<UInt8>) throws(PayloadError) -> HelloRequest {
        var reader = PayloadReader(payload, type: .helloRequest)
        try reader.requireLength(2, 2)
        return HelloRequest(hostMajor: reader.u8(), hostMinor: reader.u8())
    }

    func write(to writer: inout PayloadWriter) {
        writer.u8(hostMajor)
        writer.u8(hostMinor)
    }
}

/// BLE_FILTER (0x90): which advertisements the MCU should report.
public struct BLEFilter: Sendable, Equatable {
    public static let maximumEntries = 16

    public enum Entry: Sendable, Equatable {
        /// Kind 0: an advertiser address, 6 bytes most significant first.
        case address([UInt8])
        /// Kind 1: an iBeacon proximity UUID, 16 bytes.
        case iBeaconUUID([UInt8])
        /// Kind 2: an Eddystone-UID namespace, 10 bytes.
        case eddystoneNamespace([UInt8])

        var kind: UInt8 {
            switch self {
            case .address: 0
            case .iBeaconUUID: 1
            case .eddystoneNamespace: 2
            }
        }

        var value: [UInt8] {
            switch self {
            case let .address(bytes), let .iBeaconUUID(bytes), let .eddystoneNamespace(bytes): bytes
            }
        }

        static func valueLength(kind: UInt8) -> Int? {
            switch kind {
            case 0: 6
            case 1: 16
            case 2: 10
            default: nil
            }
        }
    }

    /// Empty means "report every advertisement".
    public var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries
    }

    static func parse(_ payload: ArraySlice<UInt8>) throws(PayloadError) -> BLEFilter {
        var reader = PayloadReader(payload, type: .bleFilter)
        try reader.requireLength(1, 250)
        let count = Int(reader.u8())
        guard count <= maximumEntries else {
            throw .outOfRange(type: .bleFilter, field: "count", value: count)
        }
        var entries: [Entry] = []
        for _ in 0..<count {
            guard reader.remaining >= 1 else {
                throw .tooShort(type: .bleFilter, minimum: payload.count + 1, actual: payload.count)
            }
            let kind = reader.u8()
            guard let length = Entry.valueLength(kind: kind) else {
                throw .outOfRange(type: .bleFilter, field: "kind", value: Int(kind))
            }
            guard reader.remaining >= length else {
                throw .tooShort(
                    type: .bleFilter, minimum: payload.count - reader.remaining + length,
                    actual: payload.count)
            }
            let value = Array(reader.bytes(length))
            switch kind {
            case 0: entries.append(.address(value))
            case 1: entries.append(.iBeaconUUID(value))
            default: entries.append(.eddystoneNamespace(value))
            }
        }
        guard reader.remaining == 0 else {
            throw .tooLong(
                type: .bleFilter, maximum: payload.count - reader.remaining, actual: payload.count)
        }
        return BLEFilter(entries: entries)
    }

    func write(to writer: inout PayloadWriter) {
        writer.u8(UInt8(truncatingIfNeeded: entries.count))
        for entry in entries {
            writer.u8(entry.kind)
            writer.append(entry.value)
        }
    }
}

/// NFC_WRITE (0xA0): write an NDEF message to the next tag presented.
public struct NFCWrite: Sendable, Equatable {
    public var timeoutSeconds: UInt8
    public var ndef: ArraySlice<UInt8>

    public init(timeoutSeconds: UInt8, ndef: ArraySlice<UInt8>) {
        self.timeoutSeconds = timeoutSeconds
        self.ndef = ndef
    }

    static func parse(_ payload: ArraySlice<UInt8>) throws(PayloadError) -> NFCWrite {
        var reader = PayloadReader(payload, type: .nfcWrite)
        try reader.requireLength(1, 250)
        return NFCWrite(timeoutSeconds: reader.u8(), ndef: reader.rest())
    }

    func write(to writer: inout PayloadWriter) {
        writer.u8(timeoutSeconds)
        writer.append(ndef)
    }
}

/// FEEDBACK (0xA1): a buzzer and LED pattern on the dongle.
public enum Feedback: UInt8, Sendable, CaseIterable {
    case accepted = 0
    case rejected = 1
    case sessionStarted = 2
    case sessionEnded = 3
    case provisioning = 4

    public var name: String {
        switch self {
        case .accepted: "accepted"
        case .rejected: "rejected"
        case .sessionStarted: "session_started"
        case .sessionEnded: "session_ended"
        case .provisioning: "provisioning"
        }
    }

    static func parse(_ payload: ArraySlice<UInt8>) throws(PayloadError) -> Feedback {
        var reader = PayloadReader(payload, type: .feedback)
        try reader.requireLength(1, 1)
        return try reader.enumValue(reader.u8(), field: "pattern")
    }
}

/// BOOTLOADER (0xB0): reset the MCU into its USB bootloader.
public enum Bootloader {
    /// The bytes "FLSH" read as a little-endian u32.
    public static let magic: UInt32 = 0x4853_4C46

    static func parse(_ payload: ArraySlice<UInt8>) throws(PayloadError) {
        var reader = PayloadReader(payload, type: .bootloader)
        try reader.requireLength(4, 4)
        let value = reader.u32()
        guard value == magic else {
            throw .outOfRange(type: .bootloader, field: "magic", value: Int(value))
        }
    }
}
