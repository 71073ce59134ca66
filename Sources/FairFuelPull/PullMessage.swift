/// One USB pull frame's meaning; payload layouts are in docs/usb-pull-protocol.md.
public enum PullMessage: Sendable, Equatable {
    case helloRequest(major: UInt8, minor: UInt8)
    /// The laptop's nonce and its MAC over both nonces.
    case auth(clientNonce: [UInt8], mac: [UInt8])
    case get(PullRequest)
    case bye
    /// The only reply a stranger ever gets.
    case hello(major: UInt8, minor: UInt8, serverNonce: [UInt8])
    /// The dongle's MAC over both nonces, so that the laptop knows it talks to its dongle.
    case authOK(mac: [UInt8])
    /// `bytes` of a response's text at `offset`.
    case data(requestID: UInt16, offset: UInt32, bytes: [UInt8])
    case end(PullPageEnd)
    case error(requestID: UInt16, code: PullErrorCode, retryAfterMs: UInt32)

    public static let nonceLength = 16
    public static let macLength = 32
    /// Text bytes per DATA frame: 250 payload bytes less request id and offset, rounded down.
    public static let maximumDataBytes = 240

    public var type: PullFrameType {
        switch self {
        case .helloRequest: .helloRequest
        case .auth: .auth
        case .get: .get
        case .bye: .bye
        case .hello: .hello
        case .authOK: .authOK
        case .data: .data
        case .end: .end
        case .error: .error
        }
    }

    /// The payload bytes of this message.
    public func payload() -> [UInt8] {
        var w = ByteWriter()
        switch self {
        case let .helloRequest(major, minor):
            w.u8(major); w.u8(minor)
        case let .auth(nonce, mac):
            w.bytes(nonce); w.bytes(mac)
        case let .get(r):
            w.u16(r.requestID); w.u8(r.kind.rawValue); w.i64(r.trip); w.i64(r.cursor); w.i64(r.sinceUTCMs ?? Int64.min)
            w.u16(r.limit)
        case .bye:
            break
        case let .hello(major, minor, nonce):
            w.u8(major); w.u8(minor); w.bytes(nonce)
        case let .authOK(mac):
            w.bytes(mac)
        case let .data(id, offset, bytes):
            w.u16(id); w.u32(offset); w.bytes(bytes)
        case let .end(e):
            w.u16(e.requestID); w.u32(e.totalBytes); w.u16(e.records); w.i64(e.nextCursor); w.u8(e.more ? 1 : 0)
        case let .error(id, code, retry):
            w.u16(id); w.u8(code.rawValue); w.u32(retry)
        }
        return w.out
    }

    /// Parses a payload of `type`; nil when its length or a field is out of range.
    public static func parse(type: PullFrameType, payload: ArraySlice<UInt8>) -> PullMessage? {
        var r = ByteReader(payload)
        let message: PullMessage?
        switch type {
        case .helloRequest:
            message = .helloRequest(major: r.u8(), minor: r.u8())
        case .auth:
            message = .auth(clientNonce: r.bytes(nonceLength), mac: r.bytes(macLength))
        case .get:
            let id = r.u16(), rawKind = r.u8(), trip = r.i64(), cursor = r.i64(), since = r.i64(), limit = r.u16()
            guard let kind = PullRecordKind(rawValue: rawKind), limit > 0 else { return nil }
            message = .get(PullRequest(
                requestID: id, kind: kind, trip: trip, cursor: cursor, sinceUTCMs: since == Int64.min ? nil : since, limit: limit))
        case .bye:
            message = .bye
        case .hello:
            message = .hello(major: r.u8(), minor: r.u8(), serverNonce: r.bytes(nonceLength))
        case .authOK:
            message = .authOK(mac: r.bytes(macLength))
        case .data:
            let id = r.u16(), offset = r.u32()
            let rest = r.rest()
            guard !rest.isEmpty, rest.count <= maximumDataBytes else { return nil }
            message = .data(requestID: id, offset: offset, bytes: rest)
        case .end:
            let id = r.u16(), total = r.u32(), records = r.u16(), next = r.i64(), more = r.u8()
            guard more <= 1 else { return nil }
            message = .end(PullPageEnd(requestID: id, totalBytes: total, records: records, nextCursor: next, more: more == 1))
        case .error:
            let id = r.u16(), rawCode = r.u8(), retry = r.u32()
            guard let code = PullErrorCode(rawValue: rawCode) else { return nil }
            message = .error(requestID: id, code: code, retryAfterMs: retry)
        }
        guard !r.overran, r.isAtEnd else { return nil }
        return message
    }
}

/// A GET: one page of records of `kind` after `cursor`.
public struct PullRequest: Sendable, Equatable {
    public var requestID: UInt16
    public var kind: PullRecordKind
    /// The trip whose track is wanted (kind `.track`); 0 otherwise.
    public var trip: Int64
    /// Where the page starts; its meaning depends on `kind` (0 = from the start).
    public var cursor: Int64
    /// Only trips that started at or after this UTC millisecond (nil: all).
    public var sinceUTCMs: Int64?
    /// At most this many records in the page (the dongle may send fewer).
    public var limit: UInt16

    public init(requestID: UInt16, kind: PullRecordKind, trip: Int64 = 0, cursor: Int64 = 0, sinceUTCMs: Int64? = nil, limit: UInt16 = 64) {
        self.requestID = requestID
        self.kind = kind
        self.trip = trip
        self.cursor = cursor
        self.sinceUTCMs = sinceUTCMs
        self.limit = limit
    }
}

/// The END of a page: how much text it held and where the next page starts.
public struct PullPageEnd: Sendable, Equatable {
    public var requestID: UInt16
    public var totalBytes: UInt32
    public var records: UInt16
    public var nextCursor: Int64
    /// More records exist after `nextCursor`.
    public var more: Bool

    public init(requestID: UInt16, totalBytes: UInt32, records: UInt16, nextCursor: Int64, more: Bool) {
        self.requestID = requestID
        self.totalBytes = totalBytes
        self.records = records
        self.nextCursor = nextCursor
        self.more = more
    }
}

/// Little-endian writer for payloads.
struct ByteWriter {
    var out: [UInt8] = []
    mutating func u8(_ v: UInt8) { out.append(v) }
    mutating func u16(_ v: UInt16) { out.append(UInt8(v & 0xFF)); out.append(UInt8(v >> 8)) }
    mutating func u32(_ v: UInt32) { for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8((v >> UInt32(shift)) & 0xFF)) } }
    mutating func i64(_ v: Int64) {
        let bits = UInt64(bitPattern: v)
        for shift in stride(from: 0, to: 64, by: 8) { out.append(UInt8((bits >> UInt64(shift)) & 0xFF)) }
    }
    mutating func bytes(_ b: [UInt8]) { out.append(contentsOf: b) }
}

/// Little-endian reader that records an overrun instead of trapping.
struct ByteReader {
    private let data: ArraySlice<UInt8>
    private var index: Int
    private(set) var overran = false

    init(_ data: ArraySlice<UInt8>) {
        self.data = data
        index = data.startIndex
    }

    var isAtEnd: Bool { index == data.endIndex }

    mutating func u8() -> UInt8 {
        guard index < data.endIndex else { overran = true; return 0 }
        defer { index += 1 }
        return data[index]
    }
    mutating func u16() -> UInt16 { UInt16(u8()) | UInt16(u8()) << 8 }
    mutating func u32() -> UInt32 { (0..<4).reduce(UInt32(0)) { $0 | UInt32(u8()) << UInt32($1 * 8) } }
    mutating func i64() -> Int64 {
        Int64(bitPattern: (0..<8).reduce(UInt64(0)) { $0 | UInt64(u8()) << UInt64($1 * 8) })
    }
    mutating func bytes(_ count: Int) -> [UInt8] {
        guard data.endIndex - index >= count else { overran = true; index = data.endIndex; return [] }
        defer { index += count }
        return Array(data[index..<(index + count)])
    }
    mutating func rest() -> [UInt8] {
        defer { index = data.endIndex }
        return Array(data[index...])
    }
}
