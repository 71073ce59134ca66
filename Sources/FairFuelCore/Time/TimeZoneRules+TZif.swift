extension TimeZoneRules {
    /// Parses a TZif file's bytes (versions 1 to 4; RFC 8536).
    ///
    /// Version 2 and later: the 64-bit data block and the footer's TZ rule (for instants after the last
    /// transition); the version 1 block is skipped. Every count is checked against the bytes left before
    /// anything is allocated, so a truncated file or hostile counts throw instead of allocating.
    public init(name: String, tzif bytes: [UInt8]) throws(TimeZoneError) {
        var reader = TimeZoneTZifReader(bytes: bytes)
        let first = try reader.header()
        let block: TimeZoneTZifReader.DataBlock
        var rule: TimeZonePosixRule?
        if first.version >= 2 {
            try reader.skip(first.dataBlockLength(timeSize: 4), what: "the version 1 data block (\(first.countsText))")
            let second = try reader.header()
            block = try reader.dataBlock(second, timeSize: 8)
            rule = try reader.footer()
        } else {
            block = try reader.dataBlock(first, timeSize: 4)
        }
        self.init(
            name: name, transitionsUTCSeconds: block.transitions, transitionTypeIndices: block.transitionTypes,
            types: block.types, rule: rule)
    }
}

/// Reads a TZif file front to back, checking each part's length before reading it.
struct TimeZoneTZifReader {
    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    struct Header {
        /// 1 for the NUL version byte, else the digit ('2' is 2).
        var version: Int
        var isUTCCount: Int
        var isStandardCount: Int
        var leapCount: Int
        var timeCount: Int
        var typeCount: Int
        var characterCount: Int

        func dataBlockLength(timeSize: Int) -> Int {
            timeCount * timeSize + timeCount + typeCount * 6 + characterCount + leapCount * (timeSize + 4)
                + isStandardCount + isUTCCount
        }

        var countsText: String {
            "timecnt \(timeCount), typecnt \(typeCount), charcnt \(characterCount), leapcnt \(leapCount), isstdcnt \(isStandardCount), isutcnt \(isUTCCount)"
        }
    }

    struct DataBlock {
        var transitions: [Int64]
        var transitionTypes: [UInt8]
        var types: [TimeZoneLocalTimeType]
    }

    private var remaining: Int { bytes.count - offset }

    private func need(_ length: Int, what: String) throws(TimeZoneError) {
        guard length <= remaining else {
            throw TimeZoneError(
                "truncated: \(what) needs \(length) bytes from byte \(offset), but the file has \(bytes.count) bytes")
        }
    }

    mutating func skip(_ length: Int, what: String) throws(TimeZoneError) {
        try need(length, what: what)
        offset += length
    }

    private mutating func uint32() -> UInt32 {
        let value = bytes[offset..<(offset + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        offset += 4
        return value
    }

    private mutating func int64() -> Int64 {
        let value = bytes[offset..<(offset + 8)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        offset += 8
        return Int64(bitPattern: value)
    }

    /// "TZif", the version, 15 unused bytes, then six big-endian 32-bit counts.
    mutating func header() throws(TimeZoneError) -> Header {
        try need(44, what: "a 44-byte header")
        let magic = Array(bytes[offset..<(offset + 4)])
        guard magic == Array("TZif".utf8) else {
            let shown = magic.map { (0x20..<0x7F).contains($0) ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16) }.joined()
            throw TimeZoneError("no TZif magic at byte \(offset): it starts with '\(shown)', not 'TZif'")
        }
        let versionByte = bytes[offset + 4]
        let version: Int
        switch versionByte {
        case 0: version = 1
        case UInt8(ascii: "2")...UInt8(ascii: "9"): version = Int(versionByte - UInt8(ascii: "0"))
        default: throw TimeZoneError("unknown TZif version byte 0x\(String(versionByte, radix: 16)) at byte \(offset + 4)")
        }
        offset += 20
        let counts = (0..<6).map { _ in Int(uint32()) }
        let header = Header(
            version: version, isUTCCount: counts[0], isStandardCount: counts[1], leapCount: counts[2], timeCount: counts[3],
            typeCount: counts[4], characterCount: counts[5])
        guard header.typeCount > 0 else { throw TimeZoneError("typecnt is 0: a TZif file needs a local time type") }
        guard header.characterCount > 0 else { throw TimeZoneError("charcnt is 0: a TZif file needs its abbreviations") }
        guard header.isUTCCount == 0 || header.isUTCCount == header.typeCount,
            header.isStandardCount == 0 || header.isStandardCount == header.typeCount
        else { throw TimeZoneError("isutcnt and isstdcnt must be 0 or typecnt (\(header.countsText))") }
        return header
    }

    /// Transition times and types, local time types, abbreviations; leap-second records and the
    /// standard/UT indicators are read past.
    mutating func dataBlock(_ header: Header, timeSize: Int) throws(TimeZoneError) -> DataBlock {
        try need(header.dataBlockLength(timeSize: timeSize), what: "the \(timeSize * 8)-bit data block (\(header.countsText))")
        var transitions: [Int64] = []
        transitions.reserveCapacity(header.timeCount)
        for index in 0..<header.timeCount {
            let time = timeSize == 8 ? int64() : Int64(Int32(bitPattern: uint32()))
            if let previous = transitions.last, time <= previous {
                throw TimeZoneError("transition \(index) (\(time)) is not after transition \(index - 1) (\(previous))")
            }
            transitions.append(time)
        }
        let transitionTypes = Array(bytes[offset..<(offset + header.timeCount)])
        offset += header.timeCount
        if let bad = transitionTypes.firstIndex(where: { Int($0) >= header.typeCount }) {
            throw TimeZoneError("transition \(bad) names local time type \(transitionTypes[bad]), but typecnt is \(header.typeCount)")
        }
        var records: [(offset: Int32, isDaylight: UInt8, abbreviationIndex: Int)] = []
        records.reserveCapacity(header.typeCount)
        for _ in 0..<header.typeCount {
            let utcOffset = Int32(bitPattern: uint32())
            records.append((utcOffset, bytes[offset], Int(bytes[offset + 1])))
            offset += 2
        }
        let characters = bytes[offset..<(offset + header.characterCount)]
        offset += header.characterCount
        var types: [TimeZoneLocalTimeType] = []
        types.reserveCapacity(records.count)
        for (index, record) in records.enumerated() {
            guard record.offset != Int32.min else { throw TimeZoneError("local time type \(index) has utoff -2^31") }
            guard record.isDaylight <= 1 else { throw TimeZoneError("local time type \(index) has isdst \(record.isDaylight), not 0 or 1") }
            guard record.abbreviationIndex < header.characterCount,
                let end = characters[(characters.startIndex + record.abbreviationIndex)...].firstIndex(of: 0)
            else {
                throw TimeZoneError("local time type \(index)'s abbreviation at \(record.abbreviationIndex) is not a NUL-terminated string within charcnt \(header.characterCount)")
            }
            types.append(
                TimeZoneLocalTimeType(
                    offsetSeconds: Int(record.offset), isDaylightSavingTime: record.isDaylight == 1,
                    abbreviation: String(decoding: characters[(characters.startIndex + record.abbreviationIndex)..<end], as: UTF8.self)))
        }
        offset += header.leapCount * (timeSize + 4) + header.isStandardCount + header.isUTCCount
        return DataBlock(transitions: transitions, transitionTypes: transitionTypes, types: types)
    }

    /// A newline, the TZ rule (possibly empty: none), a newline.
    mutating func footer() throws(TimeZoneError) -> TimeZonePosixRule? {
        try need(1, what: "the footer's opening newline")
        guard bytes[offset] == UInt8(ascii: "\n") else {
            throw TimeZoneError("the footer at byte \(offset) does not start with a newline")
        }
        offset += 1
        guard let end = bytes[offset...].firstIndex(of: UInt8(ascii: "\n")) else {
            throw TimeZoneError("truncated: the footer from byte \(offset) has no closing newline")
        }
        let text = String(decoding: bytes[offset..<end], as: UTF8.self)
        offset = end + 1
        if text.isEmpty { return nil }
        do {
            return try TimeZonePosixRule(parsing: text)
        } catch {
            throw TimeZoneError("the footer's \(error.description)")
        }
    }
}
