/// A field of an NDEF record, named in errors.
public enum NDEFField: String, Sendable, CaseIterable, CustomStringConvertible {
    case header
    case typeLength = "TYPE_LENGTH"
    case payloadLength = "PAYLOAD_LENGTH"
    case idLength = "ID_LENGTH"
    case type = "TYPE"
    case id = "ID"
    case payload = "PAYLOAD"

    public var description: String { rawValue }
}
