/// One NFC tag the scenario presents: what the reader sees.
public struct SimTagPlan: Sendable, Equatable {
    public var label: String
    /// The driver whose tag this is; nil for cards, blanks and strangers' tags.
    public var driver: String?
    public var kind: SimTagKind
    public var uid: [UInt8]
    /// The NDEF message on the tag at the start.
    public var ndef: [UInt8]
    public var readOnly: Bool
}
