import FairFuelCore

/// Walks the comma-separated fields of one framed sentence in order, by index ranges.
///
/// Every reader consumes one field (coordinates consume two: value and
/// hemisphere) and returns nil for an empty field; a non-empty field that does
/// not parse throws `NMEAError.badField` naming the sentence type and field.
/// Reading past the last field yields empty fields, so optional trailing
/// fields (NMEA 2.3/4.1 extras) simply come out nil.
struct NMEAFieldCursor {
    let type: NMEASentenceType
    /// Number of the field read last (the first field after the address is 1).
    private(set) var field = 0
    /// Start of the next field; past `end` once the last field is read.
    private var position: Int
    /// Index of `*`, or the end of the sentence when it has no checksum.
    private let end: Int
    /// Number of fields after the address.
    let fieldCount: Int

    init(type: NMEASentenceType, start: Int, end: Int, fieldCount: Int) {
        self.type = type
        self.position = start
        self.end = end
        self.fieldCount = fieldCount
    }

    var badField: NMEAError { .badField(type, field: field) }

    /// The byte range of the next field (empty when the field is empty or absent).
    @inline(__always)
    mutating func next(_ bytes: Span<UInt8>) -> Range<Int> {
        field &+= 1
        let start = position
        guard start <= end else { return end..<end }
        var index = start
        while index < end && bytes[unchecked: index] != 0x2C { index &+= 1 }
        position = index &+ 1
        return start..<index
    }

    mutating func skip(_ bytes: Span<UInt8>, _ count: Int = 1) {
        for _ in 0..<count { _ = next(bytes) }
    }

    // MARK: Typed readers

    /// `hhmmss` with any number of fractional digits, rounded to the millisecond.
    mutating func time(_ bytes: Span<UInt8>) throws(NMEAError) -> UTCTimeOfDay? {
        let range = next(bytes)
        if range.isEmpty { return nil }
        let i = range.lowerBound
        guard range.count >= 6,
            let hour = NMEAFieldCursor.twoDigits(bytes, i), hour < 24,
            let minute = NMEAFieldCursor.twoDigits(bytes, i + 2), minute < 60,
            let second = NMEAFieldCursor.twoDigits(bytes, i + 4), second <= 60
        else { throw badField }
        var milliseconds = ((hour * 60 + minute) * 60 + second) * 1000
        if range.count > 6 {
            guard bytes[unchecked: i + 6] == 0x2E else { throw badField }
            var place = 100
            var index = i + 7
            while index < range.upperBound {
                let digit = Int(bytes[unchecked: index]) &- 0x30
                guard digit >= 0 && digit <= 9 else { throw badField }
                if place > 0 {
                    milliseconds += digit * place
                    place /= 10
                } else if place == 0 {
                    if digit >= 5 { milliseconds += 1 }
                    place = -1
                }
                index += 1
            }
        }
        let limit = Int(UTCTimeOfDay.millisecondsPerDay) + 999
        return UTCTimeOfDay(milliseconds: Int32(min(milliseconds, limit)))
    }

    /// `ddmmyy`; the century follows `UTCDate.year(twoDigit:)`.
    mutating func date(_ bytes: Span<UInt8>) throws(NMEAError) -> UTCDate? {
        let range = next(bytes)
        if range.isEmpty { return nil }
        let i = range.lowerBound
        guard range.count == 6,
            let day = NMEAFieldCursor.twoDigits(bytes, i),
            let month = NMEAFieldCursor.twoDigits(bytes, i + 2),
            let yy = NMEAFieldCursor.twoDigits(bytes, i + 4),
            let date = UTCDate(year: UTCDate.year(twoDigit: yy), month: month, day: day)
        else { throw badField }
        return date
    }

    /// Latitude `ddmm.mmmm` and its `N`/`S` field, as signed degrees (north positive).
    mutating func latitude(_ bytes: Span<UInt8>) throws(NMEAError) -> Double? {
        try coordinate(bytes, maximumDegrees: 90, positive: 0x4E, negative: 0x53)
    }

    /// Longitude `dddmm.mmmm` and its `E`/`W` field, as signed degrees (east positive).
    mutating func longitude(_ bytes: Span<UInt8>) throws(NMEAError) -> Double? {
        try coordinate(bytes, maximumDegrees: 180, positive: 0x45, negative: 0x57)
    }

    /// Degrees and minutes as integers (minutes scaled by 10^digits), divided once.
    private mutating func coordinate(
        _ bytes: Span<UInt8>, maximumDegrees: Int64, positive: UInt8, negative: UInt8
    ) throws(NMEAError) -> Double? {
        let range = next(bytes)
        let valueField = field
        let hemisphere = next(bytes)
        if range.isEmpty { return nil }
        var index = range.lowerBound
        var whole: Int64 = 0
        var wholeDigits = 0
        while index < range.upperBound {
            let digit = Int64(bytes[unchecked: index]) &- 0x30
            guard digit >= 0 && digit <= 9 else { break }
            whole = whole &* 10 &+ digit
            wholeDigits += 1
            index += 1
        }
        var fraction: Int64 = 0
        var scale: Int64 = 1
        if index < range.upperBound {
            guard bytes[unchecked: index] == 0x2E else { throw .badField(type, field: valueField) }
            index += 1
            while index < range.upperBound {
                let digit = Int64(bytes[unchecked: index]) &- 0x30
                guard digit >= 0 && digit <= 9 else { throw .badField(type, field: valueField) }
                if scale < 1_000_000_000_000 {
                    fraction = fraction * 10 + digit
                    scale *= 10
                }
                index += 1
            }
        }
        let degrees = whole / 100
        let minutes = whole % 100
        guard wholeDigits >= 1, wholeDigits <= 5, minutes < 60,
            degrees < maximumDegrees || (degrees == maximumDegrees && minutes == 0 && fraction == 0)
        else { throw .badField(type, field: valueField) }
        let magnitude = Double(degrees) + Double(minutes * scale + fraction) / (60 * Double(scale))
        guard hemisphere.count == 1 else { throw badField }
        switch bytes[unchecked: hemisphere.lowerBound] {
        case positive: return magnitude
        case negative: return -magnitude
        default: throw badField
        }
    }

    /// A decimal number with optional sign and point (`-33.9`, `000.0`, `.5`).
    mutating func decimal(_ bytes: Span<UInt8>) throws(NMEAError) -> Double? {
        let range = next(bytes)
        if range.isEmpty { return nil }
        guard let value = NMEAFieldCursor.parseDecimal(bytes, range) else { throw badField }
        return value
    }

    /// An unsigned decimal integer of at most nine digits.
    mutating func integer(_ bytes: Span<UInt8>) throws(NMEAError) -> Int? {
        let range = next(bytes)
        if range.isEmpty { return nil }
        guard range.count <= 9 else { throw badField }
        var value = 0
        for index in range {
            let digit = Int(bytes[unchecked: index]) &- 0x30
            guard digit >= 0 && digit <= 9 else { throw badField }
            value = value * 10 + digit
        }
        return value
    }

    /// A number with optional sign and decimals, rounded half up to an integer in `limits`.
    mutating func roundedInteger(_ bytes: Span<UInt8>, in limits: ClosedRange<Int>) throws(NMEAError) -> Int? {
        let range = next(bytes)
        if range.isEmpty { return nil }
        var index = range.lowerBound
        var negative = false
        if bytes[unchecked: index] == 0x2D {
            negative = true
            index += 1
        }
        var value = 0
        var digits = 0
        while index < range.upperBound {
            let digit = Int(bytes[unchecked: index]) &- 0x30
            guard digit >= 0 && digit <= 9 else { break }
            guard digits < 6 else { throw badField }
            value = value * 10 + digit
            digits += 1
            index += 1
        }
        if index < range.upperBound {
            guard bytes[unchecked: index] == 0x2E else { throw badField }
            index += 1
            var first = true
            while index < range.upperBound {
                let digit = Int(bytes[unchecked: index]) &- 0x30
                guard digit >= 0 && digit <= 9 else { throw badField }
                if first && digit >= 5 { value += 1 }
                first = false
                digits += 1
                index += 1
            }
        }
        guard digits > 0 else { throw badField }
        if negative { value = -value }
        guard limits.contains(value) else { throw badField }
        return value
    }

    /// A signed decimal integer of at most nine digits (`-08`).
    mutating func signedInteger(_ bytes: Span<UInt8>) throws(NMEAError) -> Int? {
        let range = next(bytes)
        if range.isEmpty { return nil }
        var index = range.lowerBound
        var negative = false
        if bytes[unchecked: index] == 0x2D || bytes[unchecked: index] == 0x2B {
            negative = bytes[unchecked: index] == 0x2D
            index += 1
        }
        guard index < range.upperBound, range.upperBound - index <= 9 else { throw badField }
        var value = 0
        while index < range.upperBound {
            let digit = Int(bytes[unchecked: index]) &- 0x30
            guard digit >= 0 && digit <= 9 else { throw badField }
            value = value * 10 + digit
            index += 1
        }
        return negative ? -value : value
    }

    /// GNS mode letters, one per system.
    mutating func modeIndicators(_ bytes: Span<UInt8>) throws(NMEAError) -> NMEAModeIndicators? {
        let range = next(bytes)
        if range.isEmpty { return nil }
        var packed: UInt64 = 0
        var count = 0
        for index in range {
            guard NMEAModeIndicator(rawValue: bytes[unchecked: index]) != nil else { throw badField }
            if count < 8 {
                packed |= UInt64(bytes[unchecked: index]) << (8 * UInt64(count))
                count += 1
            }
        }
        return NMEAModeIndicators(packed: packed, count: count)
    }

    // MARK: Lenient readers, for extras the fix does not use

    /// A decimal number, or nil when empty or unparsable (magnetic variation, geoid separation, ...).
    mutating func lenientDecimal(_ bytes: Span<UInt8>) -> Double? {
        let range = next(bytes)
        return range.isEmpty ? nil : NMEAFieldCursor.parseDecimal(bytes, range)
    }

    /// An unsigned integer of at most nine digits, or nil when empty or unparsable.
    mutating func lenientInteger(_ bytes: Span<UInt8>) -> Int? {
        let range = next(bytes)
        guard !range.isEmpty, range.count <= 9 else { return nil }
        var value = 0
        for index in range {
            let digit = Int(bytes[unchecked: index]) &- 0x30
            guard digit >= 0 && digit <= 9 else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    /// A one-letter code, or nil when empty, longer, or not a known letter.
    mutating func lenientCode<T: RawRepresentable<UInt8>>(_ bytes: Span<UInt8>, as: T.Type) -> T? {
        let range = next(bytes)
        guard range.count == 1 else { return nil }
        return T(rawValue: bytes[unchecked: range.lowerBound])
    }

    /// A hexadecimal digit, or nil when empty or not hex.
    mutating func lenientHexDigit(_ bytes: Span<UInt8>) -> UInt8? {
        let range = next(bytes)
        guard range.count == 1 else { return nil }
        return NMEAFieldCursor.nibble(bytes[unchecked: range.lowerBound])
    }

    /// The status letter of RMC and GLL: `A` (and `D`, differential, sent by some
    /// receivers) is valid; any other letter means the data is not to be trusted.
    mutating func status(_ bytes: Span<UInt8>) -> NMEAStatus? {
        let range = next(bytes)
        if range.isEmpty { return nil }
        let letter = bytes[unchecked: range.lowerBound]
        return range.count == 1 && (letter == 0x41 || letter == 0x44) ? .active : .void
    }

    // MARK: Scanning

    @inline(__always)
    static func twoDigits(_ bytes: Span<UInt8>, _ index: Int) -> Int? {
        let high = Int(bytes[unchecked: index]) &- 0x30
        let low = Int(bytes[unchecked: index + 1]) &- 0x30
        guard high >= 0 && high <= 9 && low >= 0 && low <= 9 else { return nil }
        return high * 10 + low
    }

    @inline(__always)
    static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte &- 0x30
        case 0x41...0x46: byte &- 0x37
        case 0x61...0x66: byte &- 0x57
        default: nil
        }
    }

    /// Integer mantissa and digit count, then one division by a power of ten (exact when
    /// the mantissa is below 2^53, so the result is the double nearest the text).
    static func parseDecimal(_ bytes: Span<UInt8>, _ range: Range<Int>) -> Double? {
        var index = range.lowerBound
        var negative = false
        if bytes[unchecked: index] == 0x2D || bytes[unchecked: index] == 0x2B {
            negative = bytes[unchecked: index] == 0x2D
            index += 1
        }
        var mantissa: Int64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        while index < range.upperBound {
            let byte = bytes[unchecked: index]
            if byte == 0x2E {
                guard !seenPoint else { return nil }
                seenPoint = true
            } else {
                let digit = Int64(byte) &- 0x30
                guard digit >= 0 && digit <= 9 else { return nil }
                if mantissa < 100_000_000_000_000_000 {
                    mantissa = mantissa * 10 + digit
                    if seenPoint { fractionDigits += 1 }
                } else if !seenPoint {
                    return nil
                }
                digits += 1
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        let value = Double(mantissa) / powerOfTen(fractionDigits)
        return negative ? -value : value
    }

    @inline(__always)
    static func powerOfTen(_ exponent: Int) -> Double {
        switch exponent {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        default: 1e18
        }
    }
}
