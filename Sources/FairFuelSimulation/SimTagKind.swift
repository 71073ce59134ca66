import FairFuelCore

/// NFC tag products the simulator knows: technology, ATQA/SAK, UID length, NDEF room.
public enum SimTagKind: String, Sendable, CaseIterable {
    case ntag213, ntag215, ntag216, ultralight
    case mifareClassic1K = "mifare-classic-1k"
    case mifareClassic4K = "mifare-classic-4k"
    case desfire
    case iso15693
    case felica
    case iso14443b
    case bankCard = "bank-card"

    public var technology: NFCTechnology {
        switch self {
        case .iso15693: .iso15693
        case .felica: .feliCa
        case .iso14443b: .iso14443B
        default: .iso14443A
        }
    }

    /// ATQA as the link carries it, with the UID-size bits (b8 b7) set for `uidLength` bytes.
    public func atqa(uidLength: Int) -> UInt16 {
        guard technology == .iso14443A else { return 0 }
        let sizeBits: UInt16 = uidLength == 10 ? 0x80 : uidLength == 7 ? 0x40 : 0
        return (baseATQA & ~0x00C0) | sizeBits
    }

    var baseATQA: UInt16 {
        switch self {
        case .ntag213, .ntag215, .ntag216, .ultralight: 0x0044
        case .mifareClassic1K, .bankCard: 0x0004
        case .mifareClassic4K: 0x0002
        case .desfire: 0x0344
        case .iso15693, .felica, .iso14443b: 0
        }
    }

    public var sak: UInt8 {
        switch self {
        case .ntag213, .ntag215, .ntag216, .ultralight: 0x00
        case .mifareClassic1K: 0x08
        case .mifareClassic4K: 0x18
        case .desfire, .bankCard: 0x20
        case .iso15693, .felica, .iso14443b: 0
        }
    }

    public var uidLength: Int {
        switch self {
        case .ntag213, .ntag215, .ntag216, .ultralight, .desfire: 7
        case .mifareClassic1K, .mifareClassic4K, .bankCard, .iso14443b: 4
        case .iso15693, .felica: 8
        }
    }

    /// Largest NDEF message the tag holds; 0 for tags without NDEF memory.
    public var ndefCapacity: Int {
        switch self {
        case .ntag213: 137
        case .ntag215: 496
        case .ntag216: 868
        case .ultralight: 46
        case .mifareClassic1K: 716
        case .mifareClassic4K: 3356
        case .desfire: 2048
        case .iso15693: 108
        case .felica: 224
        case .iso14443b, .bankCard: 0
        }
    }

    /// The usual product for a UID of this many bytes.
    static func guess(uidLength: Int, firstByte: UInt8) -> SimTagKind? {
        switch uidLength {
        case 4: .mifareClassic1K
        case 7: .ntag213
        case 8: firstByte == 0xE0 ? .iso15693 : .felica
        case 10: .desfire
        default: nil
        }
    }
}

/// A driver's NFC tag as the scenario describes it.
public struct SimTagSpec: Sendable, Equatable {
    public var kind: SimTagKind
    /// nil: derived from the seed and the driver's name.
    public var uid: [UInt8]?

    public init(kind: SimTagKind, uid: [UInt8]?) {
        self.kind = kind
        self.uid = uid
    }
}
